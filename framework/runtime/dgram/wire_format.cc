// Encoding and checking of the datagram header.
#include "runtime/dgram/wire_format.h"

#include <cstring>

namespace plexus::runtime::dgram {
namespace {

class Writer {
public:
    explicit Writer(uint8_t *p) : p_(p) {}
    template <typename T>
    void put(T v) {
        for (size_t i = sizeof(T); i-- > 0;) *p_++ = static_cast<uint8_t>(v >> (8 * i));
    }
    void bytes(const uint8_t *b, size_t n) {
        std::memcpy(p_, b, n);
        p_ += n;
    }

private:
    uint8_t *p_;
};

class Reader {
public:
    explicit Reader(const uint8_t *p) : p_(p) {}
    template <typename T>
    T get() {
        T v = 0;
        for (size_t i = 0; i < sizeof(T); ++i) v = static_cast<T>((v << 8) | *p_++);
        return v;
    }
    void bytes(uint8_t *b, size_t n) {
        std::memcpy(b, p_, n);
        p_ += n;
    }

private:
    const uint8_t *p_;
};

bool lengths_agree(const Header &h, size_t len, size_t max_message) {
    if (len != Header::kBytes + h.frag_len) return false;
    if (h.msg_len > max_message || h.frag_count == 0 || h.frag_index >= h.frag_count) return false;
    if (static_cast<uint64_t>(h.frag_offset) + h.frag_len > h.msg_len) return false;
    if (h.frag_count == 1) return h.frag_offset == 0 && h.frag_len == h.msg_len;
    // A fragment carries something (so there are no more fragments than bytes), and the first
    // fragment's sequence must not wrap below 1.
    return h.frag_len > 0 && h.frag_count <= h.msg_len && h.seq > h.frag_index;
}

}  // namespace

void encode(const Header &h, uint8_t *out) {
    Writer w(out);
    w.put<uint16_t>(Header::kMagic);
    w.put<uint8_t>(Header::kVersion);
    w.put<uint8_t>(h.flags);
    w.put(h.key_id);
    w.put(h.sender);
    w.put(h.epoch);
    w.put(h.salt);
    w.put(h.seq);
    w.put(h.msg_len);
    w.put(h.frag_offset);
    w.put(h.frag_index);
    w.put(h.frag_count);
    w.put(h.frag_len);
    w.put<uint16_t>(0);  // reserved
    w.bytes(h.tag.data(), h.tag.size());
}

ParseResult decode(const uint8_t *data, size_t len, size_t max_message, Header *h) {
    if (!data || len < Header::kBytes) return ParseResult::too_short;
    Reader r(data);
    if (r.get<uint16_t>() != Header::kMagic) return ParseResult::bad_magic;
    if (r.get<uint8_t>() != Header::kVersion) return ParseResult::bad_version;
    h->flags = r.get<uint8_t>();
    h->key_id = r.get<uint64_t>();
    h->sender = r.get<uint32_t>();
    h->epoch = r.get<uint32_t>();
    h->salt = r.get<uint64_t>();
    h->seq = r.get<uint64_t>();
    h->msg_len = r.get<uint32_t>();
    h->frag_offset = r.get<uint32_t>();
    h->frag_index = r.get<uint32_t>();
    h->frag_count = r.get<uint32_t>();
    h->frag_len = r.get<uint16_t>();
    (void)r.get<uint16_t>();
    r.bytes(h->tag.data(), h->tag.size());
    return lengths_agree(*h, len, max_message) ? ParseResult::ok : ParseResult::bad_lengths;
}

const char *describe(ParseResult r) {
    switch (r) {
    case ParseResult::ok: return "ok";
    case ParseResult::too_short: return "shorter than a header";
    case ParseResult::bad_magic: return "not a Plexus datagram (magic)";
    case ParseResult::bad_version: return "unknown header version";
    case ParseResult::bad_lengths: return "lengths out of range";
    }
    return "?";
}

}  // namespace plexus::runtime::dgram
