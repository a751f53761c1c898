// The matching queues of one context id: posted receives and unexpected messages, kept per
// source so that a message only looks at the receives that could want it. Receives for
// MPI_ANY_SOURCE sit in one list of their own; every receive carries its posting number, so that
// between the first candidate of its source and the first wildcard one the earlier wins, as MPI
// requires. Unexpected messages carry an arrival number for the same reason.
#pragma once

#include <cstdint>
#include <vector>

#include "mpi/pml/intrusive_list.h"
#include "mpi/request.h"
#include "mpi/pml/pml_protocol.h"

namespace plexus::mpi {

struct RequestLinks {
    static Request *&next(Request *r) { return r->pml.next; }
    static Request *&prev(Request *r) { return r->pml.prev; }
};
using RequestList = IntrusiveList<Request, RequestLinks>;

// A match message that arrived before any receive wanted it.
struct Unexpected {
    Unexpected *next = nullptr;
    Unexpected *prev = nullptr;
    uint8_t kind = 0;  // wire::kEager, kEagerSync or kRts
    uint32_t proc = 0;
    uint32_t seq = 0;  // the sender's sequence number toward us (what MPI_Cancel names)
    int source = 0;
    int tag = 0;
    uint64_t arrival = 0;
    uint64_t bytes = 0;  // of the whole message
    uint64_t send_cookie = 0;
    uint64_t addr = 0;
    plexus_btl_mem_handle_t handle{};
    std::vector<uint8_t> data;  // eager payload (capacity kept when recycled)
};
using UnexpectedList = IntrusiveList<Unexpected, MemberLinks<Unexpected>>;

class ContextQueues {
public:
    Comm *comm = nullptr;  // null while the communicator exists only at peers

    // A new receive: the earliest unexpected message it matches (removed), or nullptr after
    // posting the receive.
    Unexpected *take_or_post(Request *r);
    // A new message from source with tag: the receive it matches (removed), or nullptr.
    Request *match(int source, int tag);
    // Keeps a message nobody wanted yet.
    void keep(Unexpected *u);
    // The earliest unexpected message a probe for (source, tag) sees, left in place.
    Unexpected *peek(int source, int tag);
    // Takes a posted receive back (cancel); false when it is not posted here.
    bool unpost(Request *r);
    // Takes back the unexpected message that process proc sent as source with sequence number
    // seq (a cancelled send), or nullptr when none waits here (it matched already).
    Unexpected *withdraw(int source, uint32_t proc, uint32_t seq);
    // Every unexpected message, for the communicator's end.
    Unexpected *pop_unexpected();
    bool has_unexpected() const { return unexpected_count_ > 0; }

private:
    struct Source {
        RequestList posted;
        UnexpectedList unexpected;
    };
    Source *source(int rank);
    Unexpected *first_unexpected(int source, int tag);

    std::vector<Source> sources_;
    RequestList posted_any_;   // MPI_ANY_SOURCE receives
    uint32_t next_post_ = 0;   // posting numbers (Request::pml.seq of a receive)
    uint64_t next_arrival_ = 0;
    size_t unexpected_count_ = 0;
};

}  // namespace plexus::mpi
