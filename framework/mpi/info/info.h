// The library side of MPI_Info: (key, value) string pairs in the order their keys were first
// set, with the MPI length limits. C++ code that takes hints (communicator hints for COLL, DPM
// and OSC arguments) reads them with info_lookup, which also takes MPI_INFO_NULL.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "mpi.h"

struct plexus_mpi_info_s {
    static constexpr uint32_t kMagic = 0x494e464f;  // "INFO"
    uint32_t magic = kMagic;

    // The value of key; nullptr when key is not set.
    const std::string *find(std::string_view key) const;
    // Sets key (a new key goes last; an existing one keeps its place).
    void set(std::string_view key, std::string_view value);
    // False when key is not set.
    bool erase(std::string_view key);
    size_t size() const { return entries_.size(); }
    // The n-th key (0 <= n < size()), in the order keys were first set.
    const std::string &key_at(size_t n) const { return entries_[n].first; }

private:
    std::vector<std::pair<std::string, std::string>> entries_;
};

namespace plexus::mpi {

using Info = ::plexus_mpi_info_s;

inline bool info_valid(const Info *info) { return info && info->magic == Info::kMagic; }

// Why key or value breaks MPI's limits (empty, longer than MPI_MAX_INFO_KEY / MPI_MAX_INFO_VAL):
// nullptr when it does not.
const char *info_key_problem(std::string_view key);
const char *info_value_problem(std::string_view value);

// A hint: the value of key in info; nothing for MPI_INFO_NULL, an invalid info or an unset key.
std::optional<std::string_view> info_lookup(const Info *info, std::string_view key);
// A yes/no hint ("true"/"false", "1"/"0", "yes"/"no"); nothing when unset or not one of those.
std::optional<bool> info_lookup_bool(const Info *info, std::string_view key);

}  // namespace plexus::mpi
