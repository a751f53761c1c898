// Info objects: the pairs, their limits and the hint lookups.
#include "mpi/info/info.h"

#include <algorithm>

const std::string *plexus_mpi_info_s::find(std::string_view key) const {
    for (const auto &[k, v] : entries_)
        if (k == key) return &v;
    return nullptr;
}

void plexus_mpi_info_s::set(std::string_view key, std::string_view value) {
    auto it = std::find_if(entries_.begin(), entries_.end(), [key](const auto &e) { return e.first == key; });
    if (it != entries_.end())
        it->second = value;
    else
        entries_.emplace_back(key, value);
}

bool plexus_mpi_info_s::erase(std::string_view key) {
    auto it = std::find_if(entries_.begin(), entries_.end(), [key](const auto &e) { return e.first == key; });
    if (it == entries_.end()) return false;
    entries_.erase(it);
    return true;
}

namespace plexus::mpi {

const char *info_key_problem(std::string_view key) {
    if (key.empty()) return "empty";
    if (key.size() > MPI_MAX_INFO_KEY) return "longer than MPI_MAX_INFO_KEY (255)";
    return nullptr;
}

const char *info_value_problem(std::string_view value) {
    if (value.empty()) return "empty";
    if (value.size() > MPI_MAX_INFO_VAL) return "longer than MPI_MAX_INFO_VAL (1024)";
    return nullptr;
}

std::optional<std::string_view> info_lookup(const Info *info, std::string_view key) {
    if (!info_valid(info)) return std::nullopt;
    const std::string *v = info->find(key);
    if (!v) return std::nullopt;
    return std::string_view(*v);
}

std::optional<bool> info_lookup_bool(const Info *info, std::string_view key) {
    const auto v = info_lookup(info, key);
    if (!v) return std::nullopt;
    if (*v == "true" || *v == "1" || *v == "yes") return true;
    if (*v == "false" || *v == "0" || *v == "no") return false;
    return std::nullopt;
}

}  // namespace plexus::mpi
