// Buffered sends: the data is copied (packed) into a block of the attached buffer and sent from
// there by an internal request that owns the block; the user's call returns at once.
#pragma once

#include "mpi/mpi_state.h"

namespace plexus::mpi {

// Copies count items of type at buf into the attached buffer and starts sending them.
// MPI_ERR_BUFFER when nothing is attached or the message does not fit even after completed
// buffered sends have given their blocks back.
int start_buffered(MpiState &s, const char *function, const void *buf, int count, Datatype *type, int dest, int tag,
                   Comm *comm);

// Waits until every buffered send has completed (MPI_Buffer_detach, MPI_Finalize).
void drain_buffered(MpiState &s);

}  // namespace plexus::mpi
