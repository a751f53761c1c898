// Blank-trimming for text that arrives from files, the environment and command lines, where
// surrounding blanks are never meant.
#pragma once

#include <string_view>

namespace plexus::mca {

inline std::string_view trim(std::string_view s) {
    constexpr std::string_view kBlank = " \t\n\r\f\v";
    const size_t first = s.find_first_not_of(kBlank);
    if (first == std::string_view::npos) return {};
    return s.substr(first, s.find_last_not_of(kBlank) - first + 1);
}

}  // namespace plexus::mca
