// The MPI layer's bookkeeping bits in Request::mpi_flags: what to do when a request completes
// beyond handing its status to the user.
#pragma once

#include <cstdint>

namespace plexus::mpi {

enum RequestFlag : uint32_t {
    // Completed by the MPI layer itself, never given to the PML: MPI_PROC_NULL operations and
    // the user's handle of a buffered send (complete once the data is in the attached buffer).
    kRequestLocal = 1u << 0,
    // (Bits 1 and 2 marked packed copies of typed data; the PML packs per fragment now.)
    // A persistent buffered send (MPI_Bsend_init): each start copies into the attached buffer.
    kRequestBuffered = 1u << 3,
    // The internal send of a buffered message: mpi_data is its region of the attached buffer,
    // released (with the request) once the send completes.
    kRequestBsendCopy = 1u << 4,
    // The request holds a reference to its derived datatype (nonblocking and persistent
    // requests), released when the request goes back to the pool.
    kRequestHoldsType = 1u << 5,
};

}  // namespace plexus::mpi
