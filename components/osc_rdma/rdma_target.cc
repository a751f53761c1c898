// The target side: what arrives for this window. Data records are applied in arrival order (so
// accumulates are element-atomic with respect to each other: one thread applies them one by one)
// and counted for the synchronisation they belong to; control messages move the epochs; get
// requests are answered from the window in messages of the eager size.
#include <cstdio>
#include <cstring>

#include "rdma_window.h"

namespace plexus::osc_rdma {
namespace {

// A target datatype made from its description, released when it goes.
class DecodedType {
public:
    DecodedType(const plexus_osc_services_t *svc, const uint8_t *bytes, size_t len) : svc_(svc) {
        if (svc->dtype_decode(bytes, len, &type_) != PLEXUS_OSC_SUCCESS) type_ = nullptr;
    }
    ~DecodedType() {
        if (type_) svc_->dtype_release(type_);
    }
    DecodedType(const DecodedType &) = delete;
    DecodedType &operator=(const DecodedType &) = delete;
    plexus_coll_dtype_t *get() const { return type_; }

private:
    const plexus_osc_services_t *svc_;
    plexus_coll_dtype_t *type_ = nullptr;
};

}  // namespace

void Window::on_message(uint32_t src_proc, const MsgHeader &h, const uint8_t *body, size_t len) {
    const int src = svc_->rank_of(win_, src_proc);
    if (src < 0 || src >= size_) return;
    receive(src, h, body, len);
}

void Window::receive(int src, const MsgHeader &h, const uint8_t *body, size_t len) {
    Peer &p = peers_[size_t(src)];
    switch (h.kind) {
    case MsgKind::kData: on_data(src, h, body, len); break;
    case MsgKind::kPost: ++p.posts; break;
    case MsgKind::kComplete: received_.announce(src, h.count); break;
    case MsgKind::kLockRequest:
        lock_events(lock_queue_.request(src, h.lock_type, (h.flags & kFlagNoCheck) != 0));
        break;
    case MsgKind::kLockGrant:
        if (p.lock == LockState::kRequested) p.lock = LockState::kGranted;
        break;
    case MsgKind::kUnlock: lock_events(lock_queue_.unlock(src, h.count)); break;
    case MsgKind::kUnlockDone: p.unlock_done = true; break;
    case MsgKind::kGetReply: on_get_reply(h, body, len); break;
    case MsgKind::kFenceQuery:
        if (fence_epoch_ >= h.aux) send_control(src, MsgKind::kFenceDone, 0, 0, h.aux);
        else done_queries_.emplace_back(src, h.aux);
        break;
    case MsgKind::kFenceDone:
        if (p.await_fence != 0 && h.aux >= p.await_fence) {
            p.await_fence = 0;
            p.done_queried = false;
        }
        break;
    }
}

void Window::lock_events(const LockEvents &ev) {
    for (int r : ev.granted) send_control(r, MsgKind::kLockGrant, 0);
    for (int r : ev.released) send_control(r, MsgKind::kUnlockDone, 0);
}

// A peer one fence ahead may send the next epoch's records while this process still waits for
// the current epoch's: they wait until this fence ends, so that they neither read (gets) nor
// overwrite (puts, accumulates) the window before every update of the epoch before them landed.
bool Window::ahead_of_this_fence(const MsgHeader &h) const {
    if (h.epoch != EpochTag::kFenceEven && h.epoch != EpochTag::kFenceOdd) return false;
    return int(h.epoch) != int(fence_epoch_ & 1u);
}

void Window::apply_early() {
    std::vector<EarlyData> early;
    early.swap(early_);
    for (EarlyData &e : early) on_data(e.src, e.h, e.body.data(), e.body.size());
}

void Window::on_data(int src, const MsgHeader &h, const uint8_t *body, size_t len) {
    if (ahead_of_this_fence(h)) {
        early_.push_back(EarlyData{src, h, std::vector<uint8_t>(body, body + len)});
        return;
    }
    RecordReader reader(body, len);
    RecordView r;
    uint32_t n = 0;
    while (reader.next(&r)) {
        apply_record(src, r);
        ++n;
    }
    if (reader.bad() && host_ && host_->log)
        host_->log(nullptr, PLEXUS_LOG_WARN, "osc_rdma: a malformed record from rank %d was dropped", src);
    if (h.epoch == EpochTag::kLock)
        lock_events(lock_queue_.arrived(src, n));
    else
        received_.arrived(h.epoch, src, n);
    if (h.flags) on_epoch_end(src, h);
}

// The origin's epoch ended with this message (close_epoch): aux records in all.
void Window::on_epoch_end(int src, const MsgHeader &h) {
    if ((h.flags & kFlagFenceEnd) && (h.epoch == EpochTag::kFenceEven || h.epoch == EpochTag::kFenceOdd)) {
        const int parity = int(h.epoch);
        received_.expect_fence(parity, h.aux);
        ++fence_ends_[parity];
    }
    if (h.flags & kFlagComplete) received_.announce(src, h.aux);
    if (h.flags & kFlagUnlock) lock_events(lock_queue_.unlock(src, h.aux));
}

int Window::apply_record(int src, const RecordView &r) {
    uint8_t *at = static_cast<uint8_t *>(base_) + r.h.disp;
    if (r.h.kind == RecordKind::kGetRequest) {
        answer_get(src, r);
        return PLEXUS_OSC_SUCCESS;
    }
    if (r.h.kind == RecordKind::kAccumulate)
        return r.h.get_id ? assemble_accumulate(src, r, at) : apply_accumulate(r, at);
    if (r.h.type_len == 0) {
        if (r.h.disp + r.h.offset + r.h.len > bytes_) return PLEXUS_OSC_ERR_DISP;  // the origin checked
        std::memcpy(at + r.h.offset, r.payload, r.h.len);
        return PLEXUS_OSC_SUCCESS;
    }
    DecodedType type(svc_, r.type, r.h.type_len);
    if (!type.get()) return PLEXUS_OSC_ERR_INTERN;
    return svc_->unpack(at, int(r.h.target_count), type.get(), r.h.offset, r.payload, r.h.len);
}

// The fragment's items are unpacked into a temporary of the target layout, then combined into the
// window by the predefined operation (op_apply wants both operands in one layout).
int Window::apply_accumulate(const RecordView &r, uint8_t *at) {
    DecodedType type(svc_, r.type, r.h.type_len);
    plexus_coll_op_t *op = svc_->op_by_id(r.h.op);
    if (!type.get() || !op) return PLEXUS_OSC_ERR_INTERN;
    plexus_coll_dtype_info_t info{};
    info.struct_size = sizeof info;
    svc_->coll->dtype_info(type.get(), &info);
    if (info.size == 0 || r.h.len == 0) return PLEXUS_OSC_SUCCESS;
    const size_t items = size_t(r.h.len / info.size);
    const size_t first = size_t(r.h.offset / info.size);
    std::vector<uint8_t> tmp(size_t(info.true_extent) + (items - 1) * size_t(info.extent));
    uint8_t *tmp_base = tmp.data() - info.true_lb;
    if (int rc = svc_->unpack(tmp_base, int(items), type.get(), 0, r.payload, r.h.len); rc != PLEXUS_OSC_SUCCESS) return rc;
    return svc_->coll->op_apply(op, tmp_base, at + ptrdiff_t(first) * info.extent, int(items), type.get());
}

// A fragment of an accumulate whose items are larger than a message: kept until every byte is
// here, then applied as one (the description travels with every fragment).
int Window::assemble_accumulate(int src, const RecordView &r, uint8_t *at) {
    const auto key = std::make_pair(src, r.h.get_id);
    Assembly &a = assembling_[key];
    if (a.bytes.empty()) a.bytes.resize(size_t(r.h.total));
    if (r.h.total != a.bytes.size() || r.h.offset + r.h.len > a.bytes.size()) {
        assembling_.erase(key);
        return PLEXUS_OSC_ERR_INTERN;
    }
    std::memcpy(a.bytes.data() + r.h.offset, r.payload, size_t(r.h.len));
    a.got += r.h.len;
    if (a.got < r.h.total) return PLEXUS_OSC_SUCCESS;
    RecordView whole = r;
    whole.h.offset = 0;
    whole.h.len = r.h.total;
    whole.payload = a.bytes.data();
    const int rc = apply_accumulate(whole, at);
    assembling_.erase(key);
    return rc;
}

void Window::answer_get(int src, const RecordView &r) {
    Peer &p = peers_[size_t(src)];
    const uint8_t *at = static_cast<const uint8_t *>(base_) + r.h.disp;
    std::unique_ptr<DecodedType> type;
    if (r.h.type_len) type = std::make_unique<DecodedType>(svc_, r.type, r.h.type_len);
    const size_t room = p.outbox->capacity() - kMsgHeaderBytes - sizeof(uint64_t);
    for (uint64_t off = 0; off < r.h.total; off += room) {
        const size_t len = size_t(std::min<uint64_t>(room, r.h.total - off));
        std::vector<uint8_t> msg(kMsgHeaderBytes + sizeof(uint64_t) + len);
        MsgHeader h;
        h.win = table_->at(src).win_id;
        h.kind = MsgKind::kGetReply;
        h.aux = r.h.get_id;
        encode_header(h, msg.data());
        std::memcpy(msg.data() + kMsgHeaderBytes, &off, sizeof off);
        uint8_t *dst = msg.data() + kMsgHeaderBytes + sizeof off;
        if (type && type->get())
            svc_->pack(at, int(r.h.target_count), type->get(), size_t(off), dst, len);
        else if (r.h.disp + off + len <= bytes_)
            std::memcpy(dst, at + off, len);
        send_message(p, msg);
    }
}

void Window::on_get_reply(const MsgHeader &h, const uint8_t *body, size_t len) {
    auto it = gets_.find(h.aux);
    if (it == gets_.end() || len < sizeof(uint64_t)) return;
    PendingGet &g = it->second;
    uint64_t off = 0;
    std::memcpy(&off, body, sizeof off);
    const uint8_t *data = body + sizeof off;
    const size_t n = len - sizeof off;
    if (off > g.total || n > g.total - off) return;
    if (g.contiguous)
        std::memcpy(static_cast<uint8_t *>(g.origin) + g.lb + off, data, n);
    else
        svc_->unpack(g.origin, g.origin_count, g.origin_type, size_t(off), data, n);
    g.received += n;
    if (g.received >= g.total) {
        --peers_[size_t(g.target)].gets_outstanding;
        gets_.erase(it);
    }
}

}  // namespace plexus::osc_rdma
