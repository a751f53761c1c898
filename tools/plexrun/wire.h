// The byte format of the messages two plexruns exchange (rendezvous.h): little-endian
// integers and length-prefixed strings, read back with every length checked against what
// arrived, so that a short or garbled message is an error, never a read past the end.
#pragma once

#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

namespace plexrun {

struct WireError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

class WireWriter {
public:
    WireWriter &u8(uint8_t v) {
        bytes_.push_back(static_cast<char>(v));
        return *this;
    }
    WireWriter &u32(uint32_t v) {
        for (int i = 0; i < 4; ++i) bytes_.push_back(static_cast<char>(v >> (8 * i)));
        return *this;
    }
    WireWriter &u64(uint64_t v) {
        u32(static_cast<uint32_t>(v));
        return u32(static_cast<uint32_t>(v >> 32));
    }
    WireWriter &str(const std::string &s) {
        u32(static_cast<uint32_t>(s.size()));
        bytes_.insert(bytes_.end(), s.begin(), s.end());
        return *this;
    }
    WireWriter &blob(const std::vector<char> &b) {
        u32(static_cast<uint32_t>(b.size()));
        bytes_.insert(bytes_.end(), b.begin(), b.end());
        return *this;
    }
    // The message with its 4-byte length in front, ready for the socket.
    std::vector<char> frame() const {
        WireWriter w;
        w.u32(static_cast<uint32_t>(bytes_.size()));
        w.bytes_.insert(w.bytes_.end(), bytes_.begin(), bytes_.end());
        return w.bytes_;
    }

private:
    std::vector<char> bytes_;
};

class WireReader {
public:
    WireReader(const char *data, size_t len) : p_(data), end_(data + len) {}
    uint8_t u8() { return static_cast<uint8_t>(*take(1)); }
    uint32_t u32() {
        const char *b = take(4);
        uint32_t v = 0;
        for (int i = 0; i < 4; ++i) v |= static_cast<uint32_t>(static_cast<uint8_t>(b[i])) << (8 * i);
        return v;
    }
    uint64_t u64() {
        uint64_t lo = u32();
        return lo | static_cast<uint64_t>(u32()) << 32;
    }
    std::string str() {
        uint32_t n = u32();
        const char *b = take(n);
        return std::string(b, n);
    }
    std::vector<char> blob() {
        uint32_t n = u32();
        const char *b = take(n);
        return std::vector<char>(b, b + n);
    }

private:
    const char *take(size_t n) {
        if (static_cast<size_t>(end_ - p_) < n) throw WireError("message shorter than its fields");
        const char *b = p_;
        p_ += n;
        return b;
    }
    const char *p_;
    const char *end_;
};

}  // namespace plexrun
