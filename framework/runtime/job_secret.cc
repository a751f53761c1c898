// Generation and the textual forms of the job secret.
#include "runtime/job_secret.h"

#include <sys/random.h>

#include <cerrno>
#include <cstring>

namespace plexus::runtime {
namespace {

int hex_value(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

}  // namespace

Status JobSecret::generate(JobSecret *out) {
    size_t filled = 0;
    while (filled < kBytes) {
        // Blocks only until the kernel's pool is initialized at boot; EINTR just retries.
        ssize_t n = getrandom(out->bytes_.data() + filled, kBytes - filled, 0);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0)
            return Status::error(PLEXUS_ERR_OUT_OF_RESOURCE,
                                 std::string("getrandom failed: ") + std::strerror(errno));
        filled += static_cast<size_t>(n);
    }
    return Status::ok();
}

std::optional<JobSecret> JobSecret::from_hex(std::string_view hex) {
    if (hex.size() != 2 * kBytes) return std::nullopt;
    JobSecret s;
    for (size_t i = 0; i < kBytes; ++i) {
        int hi = hex_value(hex[2 * i]), lo = hex_value(hex[2 * i + 1]);
        if (hi < 0 || lo < 0) return std::nullopt;
        s.bytes_[i] = static_cast<uint8_t>(hi << 4 | lo);
    }
    return s;
}

std::string JobSecret::hex() const {
    static constexpr char kDigits[] = "0123456789abcdef";
    std::string out;
    out.reserve(2 * kBytes);
    for (uint8_t b : bytes_) {
        out += kDigits[b >> 4];
        out += kDigits[b & 0xf];
    }
    return out;
}

std::string JobSecret::shm_prefix() const { return "plexus-" + hex().substr(0, kPrefixHexDigits) + "-"; }

}  // namespace plexus::runtime
