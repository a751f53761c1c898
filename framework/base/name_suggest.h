// "Did you mean ...?": the closest of a set of names to a misspelt one, for parameter names,
// component names and framework names alike.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace plexus::mca {

// Edit distance (insertions, deletions, substitutions, adjacent transpositions).
size_t edit_distance(std::string_view a, std::string_view b);

// The candidate closest to name, or "" when none is within a distance that makes it a likely typo
// (about a third of the name's length, at least 1, at most 4).
std::string closest_name(std::string_view name, const std::vector<std::string> &candidates);

}  // namespace plexus::mca
