// Messages to bytes and back. Every length is checked against what is left before anything is
// read or allocated, so that a truncated or forged message is refused, never followed.
#include "wire.h"

#include <algorithm>

namespace plexus::dpm_ud {
namespace {

constexpr uint32_t kMagic = 0x44505544;  // "DUPD"
constexpr uint8_t kVersion = 1;
constexpr uint32_t kMaxText = 4096;
constexpr uint32_t kMaxProcs = 1u << 20;
constexpr uint32_t kMaxCards = 1u << 20;

class Writer {
public:
    void u8(uint8_t v) { b_.push_back(v); }
    void u16(uint16_t v) { le(v, 2); }
    void u32(uint32_t v) { le(v, 4); }
    void u64(uint64_t v) { le(v, 8); }
    void bytes(const uint8_t *p, size_t n) { b_.insert(b_.end(), p, p + n); }
    void text(const std::string &s) {
        u32(static_cast<uint32_t>(s.size()));
        bytes(reinterpret_cast<const uint8_t *>(s.data()), s.size());
    }
    void blob(const Bytes &v) {
        u32(static_cast<uint32_t>(v.size()));
        bytes(v.data(), v.size());
    }
    Bytes take() { return std::move(b_); }

private:
    void le(uint64_t v, int n) {
        for (int i = 0; i < n; ++i) b_.push_back(static_cast<uint8_t>(v >> (8 * i)));
    }
    Bytes b_;
};

class Reader {
public:
    Reader(const uint8_t *p, size_t n) : p_(p), end_(p + n) {}
    bool u8(uint8_t *v) { return le(v, 1); }
    bool u16(uint16_t *v) { return le(v, 2); }
    bool u32(uint32_t *v) { return le(v, 4); }
    bool u64(uint64_t *v) { return le(v, 8); }
    bool bytes(uint8_t *out, size_t n) {
        if (left() < n) return false;
        std::copy(p_, p_ + n, out);
        p_ += n;
        return true;
    }
    bool text(std::string *s, uint32_t max) {
        uint32_t n = 0;
        if (!u32(&n) || n > max || left() < n) return false;
        s->assign(reinterpret_cast<const char *>(p_), n);
        p_ += n;
        return true;
    }
    bool blob(Bytes *v, uint32_t max) {
        uint32_t n = 0;
        if (!u32(&n) || n > max || left() < n) return false;
        v->assign(p_, p_ + n);
        p_ += n;
        return true;
    }
    size_t left() const { return static_cast<size_t>(end_ - p_); }

private:
    template <typename T>
    bool le(T *v, int n) {
        if (left() < static_cast<size_t>(n)) return false;
        uint64_t x = 0;
        for (int i = 0; i < n; ++i) x |= uint64_t(p_[i]) << (8 * i);
        p_ += n;
        *v = static_cast<T>(x);
        return true;
    }
    const uint8_t *p_;
    const uint8_t *end_;
};

bool has_group(Kind k) { return k == Kind::hello || k == Kind::hello_ack; }
bool has_procs(Kind k) { return k == Kind::cards || k == Kind::cards_ack; }
bool has_status(Kind k) { return k == Kind::cards_ack || k == Kind::done; }
bool has_cid(Kind k) { return k != Kind::done && k != Kind::done_ack; }

}  // namespace

const char *kind_name(Kind k) {
    switch (k) {
    case Kind::hello: return "hello";
    case Kind::hello_ack: return "hello_ack";
    case Kind::propose: return "propose";
    case Kind::propose_ack: return "propose_ack";
    case Kind::cards: return "cards";
    case Kind::cards_ack: return "cards_ack";
    case Kind::done: return "done";
    case Kind::done_ack: return "done_ack";
    }
    return "?";
}

Bytes encode(const Message &m) {
    Writer w;
    w.u32(kMagic);
    w.u8(kVersion);
    w.u8(static_cast<uint8_t>(m.kind));
    w.u16(0);
    w.u64(m.session);
    if (has_group(m.kind)) {
        w.u32(m.group_size);
        w.text(m.group_id);
        w.u64(m.deadline_ms);
        w.u8(m.rc);
        w.u16(m.rc_port);
        w.bytes(m.nonce.data(), m.nonce.size());
    }
    if (has_cid(m.kind)) w.u32(m.cid);
    if (has_procs(m.kind)) {
        w.u32(static_cast<uint32_t>(m.procs.size()));
        for (const ProcCards &p : m.procs) {
            w.text(p.nspace);
            w.u32(p.rank);
            w.blob(p.cards);
        }
    }
    if (has_status(m.kind)) {
        w.u32(static_cast<uint32_t>(m.status));
        w.text(m.text);
    }
    return w.take();
}

std::optional<Message> decode(const uint8_t *data, size_t len, std::string *why) {
    Reader r(data, len);
    uint32_t magic = 0;
    uint8_t version = 0, kind = 0;
    uint16_t reserved = 0;
    Message m;
    if (!data || !r.u32(&magic) || magic != kMagic) return *why = "not a dpm_ud message (magic)", std::nullopt;
    if (!r.u8(&version) || version != kVersion)
        return *why = "dpm_ud message version " + std::to_string(version) + ", this is " + std::to_string(kVersion),
               std::nullopt;
    if (!r.u8(&kind) || kind < 1 || kind > static_cast<uint8_t>(Kind::done_ack))
        return *why = "unknown message kind " + std::to_string(kind), std::nullopt;
    m.kind = static_cast<Kind>(kind);
    if (!r.u16(&reserved) || !r.u64(&m.session)) return *why = "truncated header", std::nullopt;
    if (has_group(m.kind) && !(r.u32(&m.group_size) && r.text(&m.group_id, kMaxText) && r.u64(&m.deadline_ms) &&
                               r.u8(&m.rc) && r.u16(&m.rc_port) && r.bytes(m.nonce.data(), m.nonce.size())))
        return *why = std::string(kind_name(m.kind)) + ": truncated group fields", std::nullopt;
    if (has_group(m.kind) && (m.group_size == 0 || m.rc > 1))
        return *why = std::string(kind_name(m.kind)) + ": empty group or unknown connection kind", std::nullopt;
    if (has_cid(m.kind) && !r.u32(&m.cid)) return *why = "truncated context id", std::nullopt;
    if (has_procs(m.kind)) {
        uint32_t n = 0;
        if (!r.u32(&n) || n > kMaxProcs || n > r.left() / 12)
            return *why = std::string(kind_name(m.kind)) + ": process count out of range", std::nullopt;
        m.procs.resize(n);
        for (uint32_t i = 0; i < n; ++i) {
            ProcCards &p = m.procs[i];
            if (!r.text(&p.nspace, kMaxText) || p.nspace.empty() || !r.u32(&p.rank) || !r.blob(&p.cards, kMaxCards))
                return *why = std::string(kind_name(m.kind)) + ": process " + std::to_string(i) + " is malformed",
                       std::nullopt;
        }
    }
    if (has_status(m.kind)) {
        uint32_t st = 0;
        if (!r.u32(&st) || !r.text(&m.text, kMaxText))
            return *why = std::string(kind_name(m.kind)) + ": truncated status", std::nullopt;
        m.status = static_cast<int32_t>(st);
    }
    if (r.left() != 0) return *why = std::to_string(r.left()) + " bytes after the message", std::nullopt;
    return m;
}

}  // namespace plexus::dpm_ud
