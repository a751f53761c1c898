// What the PML puts on the wire: one BTL tag per message kind, and the header of each. Every
// process of a job runs the same library, so headers are plain structs in host byte order.
#pragma once

#include <cstdint>

#include <plexus/btl.h>

namespace plexus::mpi::wire {

// BTL tags of the PML (inside PLEXUS_BTL_TAG_PML_FIRST..LAST).
enum Tag : uint8_t {
    kEager = PLEXUS_BTL_TAG_PML_FIRST + 1,      // MatchHeader + the whole payload
    kEagerSync = PLEXUS_BTL_TAG_PML_FIRST + 2,  // SyncHeader + payload; answered by kAck on match
    kRts = PLEXUS_BTL_TAG_PML_FIRST + 3,        // RtsHeader: a large message waits at the sender
    kCts = PLEXUS_BTL_TAG_PML_FIRST + 4,        // CtsHeader: the receiver matched, send fragments
    kFrag = PLEXUS_BTL_TAG_PML_FIRST + 5,       // FragHeader + a piece of the payload
    kFin = PLEXUS_BTL_TAG_PML_FIRST + 6,        // CookieHeader: the receiver got the data itself
    kAck = PLEXUS_BTL_TAG_PML_FIRST + 7,        // CookieHeader: a synchronous eager send matched
    kPutDone = PLEXUS_BTL_TAG_PML_FIRST + 8,    // PutDoneHeader: the sender wrote bytes by put
    // MPI_Cancel of a send (pml_cancel.cc).
    kCancel = PLEXUS_BTL_TAG_PML_FIRST + 9,        // CancelHeader: withdraw my message, if unmatched
    kCancelAnswer = PLEXUS_BTL_TAG_PML_FIRST + 10, // CancelAnswerHeader: withdrawn or not
    kSkip = PLEXUS_BTL_TAG_PML_FIRST + 11,         // MatchHeader only: a sequence number with no message
};

// Matching information; seq orders the match messages of one sender to one receiver, whatever
// channel they took.
struct MatchHeader {
    uint32_t context;
    int32_t source;  // sender's rank in the communicator's local group
    int32_t tag;
    uint32_t seq;
};

struct SyncHeader {
    MatchHeader match;
    uint64_t send_cookie;
};

struct RtsHeader {
    MatchHeader match;
    uint64_t bytes;        // the whole message
    uint64_t send_cookie;  // the sender's request
    uint64_t addr;         // where the data is, for get (0: no single copy offered)
    plexus_btl_mem_handle_t handle;
};

struct CtsHeader {
    uint64_t send_cookie;
    uint64_t recv_cookie;
    uint64_t bytes;  // how many the receiver takes (less than the message when it truncates)
    // Where the receive buffer is, for the sender to put what the fragments have not carried
    // when the receiver stops draining them (0: no put offered).
    uint64_t addr;
    plexus_btl_mem_handle_t handle;
};

struct PutDoneHeader {
    uint64_t recv_cookie;
    uint64_t bytes;  // written into the receive buffer by put, beyond what fragments carry
};

struct FragHeader {
    uint64_t recv_cookie;
    uint64_t offset;
};

struct CookieHeader {
    uint64_t cookie;
};

// Names the message by what identifies it at the receiver: the sender's sequence number toward
// it, and the context and source under which an unmatched copy waits.
struct CancelHeader {
    uint32_t context;
    int32_t source;
    uint32_t seq;
    uint32_t unused;
    uint64_t send_cookie;
};

struct CancelAnswerHeader {
    uint64_t send_cookie;
    uint32_t seq;        // of the message asked about: an answer to an older question is ignored
    uint32_t cancelled;  // 1: withdrawn, it will never match; 0: it had matched already
};

}  // namespace plexus::mpi::wire
