// Which of the paper's three protocols moves one operation (osc_rdma_protocol, chosen per
// message): pure, so that auto's rules are tested without processes.
#pragma once

#include <cstddef>

namespace plexus::osc_rdma {

// Index in osc_rdma_protocol's enum values; kAuto is 0.
enum class Setting : int { kAuto = 0, kSendRecv, kBuffered, kRma };

enum class Protocol { kSendRecv, kBuffered, kRma };

enum class OpKind { kPut, kGet, kAccumulate };

// The operation as the choice sees it.
struct OpShape {
    OpKind kind = OpKind::kPut;
    size_t bytes = 0;         // packed bytes moved
    bool contiguous = false;  // origin and target layouts both one block of bytes
};

// What the path to the target offers: put/get only where the BTL has the capability AND the
// target registered its window with that BTL (its handle came in the allgather).
struct PathCaps {
    bool can_put = false;
    bool can_get = false;
    size_t buffer_room = 0;  // payload bytes one coalescing buffer holds after the headers
    bool rma_pays = true;    // the BTL's own measure for this size (rdma_threshold .. rdma_limit)
};

// osc_rdma_protocol's values, by Setting.
inline constexpr const char *kSettingNames[] = {"auto", "sendrecv", "buffered", "rma"};

Protocol choose(Setting setting, const OpShape &op, const PathCaps &caps);

const char *protocol_name(Protocol p);

}  // namespace plexus::osc_rdma
