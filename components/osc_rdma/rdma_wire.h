// The wire format of osc_rdma's messages on the osc tag: a message header naming the target's
// window (several windows share the tag) and what the message is, then, in data messages, records
// of one operation (or one fragment of it) each. Fields are written in the host's byte order:
// every BTL that reaches a peer with this component connects processes of one architecture.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace plexus::osc_rdma {

enum class MsgKind : uint8_t {
    kData = 1,     // records (count = how many)
    kPost,         // the target opened its exposure epoch to this origin (PSCW)
    kComplete,     // the origin's access epoch ended; count = operations it sent this target
    kLockRequest,  // lock_type = PLEXUS_OSC_LOCK_*
    kLockGrant,
    kUnlock,       // count = operations sent under the lock
    kUnlockDone,   // the target applied them all and released the lock
    kGetReply,     // aux = get id; payload: u64 offset into the get's packed bytes, then bytes
    kFenceQuery,   // aux = a fence count: answer kFenceDone once this many fences ended here
    kFenceDone,    // aux = the fence count asked for: the target applied that epoch's records
};

// MsgHeader.flags. kFlagFenceEnd (data messages of a fence epoch): the last message the sender
// sends the receiver in this fence epoch; aux = every record it sent it in the epoch, these
// included. A window of two processes ends its fences with it instead of a collective.
inline constexpr uint8_t kFlagFenceEnd = 1;
// kFlagComplete (PSCW) and kFlagUnlock (lock): the last data message of the origin's access epoch
// doubles as its complete / unlock message; aux = every record it sent the target in the epoch.
inline constexpr uint8_t kFlagComplete = 2;
inline constexpr uint8_t kFlagUnlock = 4;
// kLockRequest with MPI_MODE_NOCHECK: the origin holds the lock already (no other process may
// conflict, it promised) and sends without waiting for a grant; the target sends none.
inline constexpr uint8_t kFlagNoCheck = 8;

// Which synchronisation a data message belongs to: the target counts each apart. Fence epochs
// alternate parity because a peer may already be one fence ahead (its next epoch's data arrive
// while this process still waits for the current one's), never two (the count exchange of the
// next fence needs this process).
enum class EpochTag : uint8_t { kFenceEven = 0, kFenceOdd = 1, kPscw = 2, kLock = 3 };

struct MsgHeader {
    uint32_t win = 0;  // the receiver's window id
    MsgKind kind = MsgKind::kData;
    EpochTag epoch = EpochTag::kFenceEven;
    uint8_t lock_type = 0;
    uint8_t flags = 0;
    uint32_t count = 0;
    uint32_t aux = 0;
};
inline constexpr size_t kMsgHeaderBytes = 16;

enum class RecordKind : uint8_t { kPut = 1, kAccumulate, kGetRequest };

// One operation or one fragment of it: bytes [offset, offset + len) of the packed form of
// (target_count, target type) at byte displacement disp of the target's window. type_len bytes
// of the target type's encoding follow (0: the target type is plain bytes), then len payload
// bytes (none for a get request: the target answers with kGetReply messages).
struct RecordHeader {
    RecordKind kind = RecordKind::kPut;
    uint16_t type_len = 0;
    int32_t op = -1;  // accumulate: services->op_id of the operation
    uint32_t target_count = 0;
    uint32_t get_id = 0;
    uint64_t disp = 0;
    uint64_t offset = 0;
    uint64_t len = 0;
    uint64_t total = 0;  // packed bytes of the whole operation
};
inline constexpr size_t kRecordHeaderBytes = 48;
// A whole put of plain bytes (no type, one fragment, under 64 KiB) travels with a header of 16
// bytes: the per-double ghost-cell update moves 24 bytes per put instead of 56.
inline constexpr size_t kShortRecordBytes = 16;
inline bool is_short(const RecordHeader &r) {
    return r.kind == RecordKind::kPut && r.type_len == 0 && r.offset == 0 && r.len == r.total && r.len <= 0xffff;
}
inline size_t record_header_bytes(const RecordHeader &r) { return is_short(r) ? kShortRecordBytes : kRecordHeaderBytes; }

void encode_header(const MsgHeader &h, uint8_t *out);
bool decode_header(const void *data, size_t len, MsgHeader *out);

void encode_record(const RecordHeader &r, uint8_t *out);
// The short form's header alone (a whole put of len <= 0xffff plain bytes at disp).
void encode_short_put(uint64_t disp, size_t len, uint8_t *out);

// One record as read from a message: its header, and where its type and payload bytes lie.
struct RecordView {
    RecordHeader h;
    const uint8_t *type = nullptr;
    const uint8_t *payload = nullptr;
};

// Walks the records after a data message's header; refuses (next returns false and bad() is
// true) a record that claims more bytes than the message has.
class RecordReader {
public:
    RecordReader(const void *records, size_t len)
        : p_(static_cast<const uint8_t *>(records)), end_(p_ + len) {}
    bool next(RecordView *out);
    bool bad() const { return bad_; }

private:
    const uint8_t *p_;
    const uint8_t *end_;
    bool bad_ = false;
};

// Bytes a record takes in a message.
inline size_t record_bytes(const RecordHeader &r) { return record_header_bytes(r) + r.type_len + r.len; }

}  // namespace plexus::osc_rdma
