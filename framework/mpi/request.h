// A request: one point-to-point operation from start to completion. The MPI layer owns the
// object (allocation, persistence, MPI_Request_free); the PML fills in the status and sets
// complete when the operation is done. mpi.h sees only the opaque plexus_mpi_request_s.
#pragma once

#include <cstddef>
#include <cstdint>

struct plexus_mpi_comm_s;
struct plexus_mpi_datatype_s;

namespace plexus::mpi {

using Comm = ::plexus_mpi_comm_s;

enum class RequestKind : uint8_t { Send, Recv };

// How a send completes (MPI_Send, MPI_Ssend, MPI_Rsend; MPI_Bsend is a Standard send of a copy
// the MPI layer made in the attached buffer).
enum class SendMode : uint8_t { Standard, Synchronous, Ready };

// The MPI_Status fields, in bytes; the MPI layer converts to counts of its datatype.
struct RequestStatus {
    int source = -1;
    int tag = -1;
    int error = 0;      // MPI error class: MPI_SUCCESS or MPI_ERR_TRUNCATE, ...
    size_t bytes = 0;   // received (recv) or sent (send)
    bool cancelled = false;
};

}  // namespace plexus::mpi

// Global, because mpi.h declares MPI_Request as a pointer to this struct.
struct plexus_mpi_request_s {
    using Kind = plexus::mpi::RequestKind;

    // User-provided on purpose: as an aggregate, `Request r;` (the blocking calls keep theirs on
    // the stack) is cleared with a 208-byte `rep stos`, about 20 ns a call here; with a
    // constructor g++ sets the fields one by one. See also reset_request (mpi/request_pool.h).
    plexus_mpi_request_s() {}

    // ---- What the operation is (set by the MPI layer before Pml::start_*) ----
    Kind kind = Kind::Send;
    plexus::mpi::SendMode mode = plexus::mpi::SendMode::Standard;
    // buf is the user's buffer laid out by count x datatype (a type with holes): the PML packs
    // each fragment straight from it and unpacks each one straight into it. false: buf is bytes.
    bool typed = false;
    void *buf = nullptr;       // send: const data; recv: destination
    size_t bytes = 0;          // send: length; recv: capacity (packed bytes when typed)
    int peer = 0;              // rank in comm (send: destination; recv: source or ANY_SOURCE)
    int tag = 0;               // recv may be ANY_TAG
    plexus::mpi::Comm *comm = nullptr;

    // ---- Outcome (set by the PML) ----
    bool complete = false;     // set last, when status is final
    plexus::mpi::RequestStatus status;

    // ---- Life cycle (MPI layer; the PML never touches these, nor frees a request) ----
    bool persistent = false;   // MPI_Send_init / Recv_init: survives completion
    bool active = false;       // persistent: started and not yet waited for
    bool user_freed = false;   // MPI_Request_free on an active request: the MPI layer releases
                               //   it once complete
    uint32_t mpi_flags = 0;    // the MPI layer's own bookkeeping (see mpi/request_flags.h)
    void *mpi_data = nullptr;  //   the Bsend buffer region this send came from
    int count = 0;             //   the user's count and datatype, for persistent restarts
    uint32_t mpi_link_seq = 0;  //   a buffered send's handle: its internal send's sequence number
    plexus_mpi_datatype_s *datatype = nullptr;
    const void *user_buf = nullptr;   // the user's buffer, as the user passed it
    uint32_t mpi_magic = 0;           // kLiveMagic while the handle is valid
    plexus_mpi_request_s *mpi_next = nullptr;  // free list, freed-while-active list, Bsend list
    static constexpr uint32_t kLiveMagic = 0x52455155;  // "REQU"

    // ---- PML private state: untouched by anybody else ----
    struct Pml {
        uint8_t state = 0;
        bool queued = false;        // on a PML list (posted receives, pending sends)
        bool cancel_asked = false;  // send: MPI_Cancel asked the receiver, no answer yet
        uint32_t proc = 0;          // the peer's proc id once known
        uint32_t seq = 0;
        uint64_t peer_cookie = 0;   // rendezvous: the other side's request
        size_t offset = 0;          // rendezvous: bytes moved so far
        size_t target = 0;          // rendezvous: bytes to move (the receiver's share)
        plexus_mpi_request_s *next = nullptr;  // intrusive list links
        plexus_mpi_request_s *prev = nullptr;
        void *rdma = nullptr;       // rendezvous: BTL and memory handle in use
        void *staging = nullptr;    // typed send: a packed copy (a BTL without send_pack, a put)
    } pml;
};

namespace plexus::mpi {
using Request = ::plexus_mpi_request_s;
}
