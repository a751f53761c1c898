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
    // A generalized request (MPI_Grequest_start): mpi_data is its Grequest (mpi/grequest.h), the
    // program's callbacks; it completes when the program says so, never through the PML.
    kRequestGeneralized = 1u << 6,
    // The user's handle of a buffered send (MPI_Ibsend, a started MPI_Bsend_init): mpi_data is
    // the internal send that carries the copy, which MPI_Cancel withdraws; mpi_link_seq tells a
    // send that is still that one from a later use of the same request.
    kRequestBsendHandle = 1u << 7,
};

}  // namespace plexus::mpi
