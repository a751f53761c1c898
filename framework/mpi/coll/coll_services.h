// The services table the MPI layer gives coll components (plexus_coll_services_t): point-to-point
// over the PML in the collective tag space (coll_tags.h) with the same describe/start path as
// MPI_Isend/MPI_Irecv (derived datatypes are packed and unpacked the same way), requests from
// the request pool, waits through the progress engine's back-off; datatype layouts, typed local
// copies, reductions (op/op.h), the local group of an inter-communicator, and the dispatch of
// any communicator's collectives. Every function returns an MPI error class.
#pragma once

#include <plexus/coll.h>

namespace plexus::mpi::coll {

// The one table; valid while MPI runs.
const plexus_coll_services_t &services();

}  // namespace plexus::mpi::coll
