// The predefined attributes (MPI_TAG_UB ... MPI_LASTUSEDCODE): read-only values every
// communicator answers, handed out as pointers to int as MPI says.
#pragma once

namespace plexus::mpi {

// The value of a predefined key; nullptr when this process has none (MPI_UNIVERSE_SIZE when the
// launcher did not say) or keyval is not predefined.
const int *predefined_attribute(int keyval);
// "MPI_TAG_UB"; nullptr when keyval is not predefined.
const char *predefined_keyval_name(int keyval);

}  // namespace plexus::mpi
