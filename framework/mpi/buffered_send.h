// Buffered sends: the data is copied (packed) into a block of the attached buffer and sent from
// there by an internal request that owns the block; the user's call returns at once.
#pragma once

#include "mpi/mpi_state.h"

namespace plexus::mpi {

// Copies count items of type at buf into the attached buffer and starts sending them.
// MPI_ERR_BUFFER when nothing is attached or the message does not fit even after completed
// buffered sends have given their blocks back. With handle, the user's request for this send
// (MPI_Ibsend, a started MPI_Bsend_init) is linked to the internal send, for MPI_Cancel.
int start_buffered(MpiState &s, const char *function, const void *buf, int count, Datatype *type, int dest, int tag,
                   Comm *comm, Request *handle = nullptr);

// The internal send a buffered send's handle was linked to, while it is still that send (it
// goes back to the pool once sent and its block reclaimed); nullptr otherwise.
Request *linked_send(const Request *handle);

// Waits until every buffered send has completed (MPI_Buffer_detach, MPI_Finalize).
void drain_buffered(MpiState &s);

}  // namespace plexus::mpi
