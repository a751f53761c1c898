// The free list of requests: nonblocking calls take one without touching the allocator; the
// pool grows by whole chunks and gives memory back only when the library ends.
#pragma once

#include <cstddef>
#include <memory>
#include <vector>

#include "mpi/request.h"
#include "mpi/request_flags.h"

namespace plexus::mpi {

// Every field back to its initial value, as `*r = Request{}` would do. Written out because the
// compiler turns the whole-object form into a 208-byte `rep stos`, which costs ~20 ns per
// message on the machines we measure on; these are a few dozen plain stores.
inline void reset_request(Request *r) {
    static_assert(sizeof(Request) == 208, "Request changed: reset_request must set every field");
    r->kind = RequestKind::Send;
    r->mode = SendMode::Standard;
    r->typed = false;
    r->buf = nullptr;
    r->bytes = 0;
    r->peer = 0;
    r->tag = 0;
    r->comm = nullptr;
    r->complete = false;
    r->status = RequestStatus{};
    r->persistent = false;
    r->active = false;
    r->user_freed = false;
    r->mpi_flags = 0;
    r->mpi_data = nullptr;
    r->count = 0;
    r->mpi_link_seq = 0;
    r->datatype = nullptr;
    r->user_buf = nullptr;
    r->mpi_magic = 0;
    r->mpi_next = nullptr;
    r->pml = Request::Pml{};
}

class RequestPool {
public:
    static constexpr size_t kChunk = 256;

    // A request in its initial state, marked live.
    Request *get() {
        Request *r = free_ ? free_ : grow();
        free_ = r->mpi_next;
        reset_request(r);
        r->mpi_magic = Request::kLiveMagic;
        ++live_;
        return r;
    }
    // Back to the free list; the handle is invalid from here on (its magic says so).
    void put(Request *r) {
        if (r->mpi_flags & kRequestHoldsType) [[unlikely]]
            release_datatype(r);
        r->mpi_magic = 0;
        r->mpi_next = free_;
        free_ = r;
        --live_;
    }
    bool empty() const { return free_ == nullptr; }  // the next get() grows the pool
    size_t live() const { return live_; }
    size_t capacity() const { return chunks_.size() * kChunk; }
    // Whether a request out of the pool (a handle, one freed while active, a buffered send)
    // still refers to comm: MPI_Comm_free releases a communicator only once none does.
    bool refers_to(const Comm *comm) const;

private:
    Request *grow();
    [[gnu::cold]] static void release_datatype(Request *r);

    Request *free_ = nullptr;
    size_t live_ = 0;
    std::vector<std::unique_ptr<Request[]>> chunks_;
};

}  // namespace plexus::mpi
