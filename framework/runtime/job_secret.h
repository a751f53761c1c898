// The job secret: 32 random bytes every process of a job shares, used to name the job's
// shared-memory objects and to authenticate its datagrams.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "runtime/status.h"

namespace plexus::runtime {

class JobSecret {
public:
    static constexpr size_t kBytes = 32;
    static constexpr size_t kPrefixHexDigits = 16;
    using Bytes = std::array<uint8_t, kBytes>;

    // Fresh bytes from getrandom(2); fails only when the kernel cannot supply them.
    static Status generate(JobSecret *out);
    // 64 hex digits, either case; nullopt for anything else.
    static std::optional<JobSecret> from_hex(std::string_view hex);

    const Bytes &bytes() const { return bytes_; }
    std::string hex() const;  // 64 lowercase hex digits
    // "plexus-<first 16 hex digits>-": every POSIX shared-memory object of the job starts with
    // it (after shm_open's leading '/'), so that the launcher can remove them all.
    std::string shm_prefix() const;

    bool operator==(const JobSecret &) const = default;

private:
    Bytes bytes_{};
};

}  // namespace plexus::runtime
