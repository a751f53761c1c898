#include "name_suggest.h"

#include <algorithm>
#include <limits>

namespace plexus::mca {
namespace {

std::string lowered(std::string_view s) {
    std::string out(s);
    for (char &c : out)
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    return out;
}

size_t max_typo_distance(size_t name_length) { return std::clamp<size_t>(name_length / 3, 1, 4); }

}  // namespace

// Optimal string alignment: Levenshtein plus swapping two neighbours, each character edited at
// most once. Three rows suffice because a transposition looks back two rows only.
size_t edit_distance(std::string_view a, std::string_view b) {
    std::vector<size_t> two_back(b.size() + 1), prev(b.size() + 1), cur(b.size() + 1);
    for (size_t j = 0; j <= b.size(); ++j) prev[j] = j;
    for (size_t i = 1; i <= a.size(); ++i) {
        cur[0] = i;
        for (size_t j = 1; j <= b.size(); ++j) {
            const size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
            cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost});
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
                cur[j] = std::min(cur[j], two_back[j - 2] + 1);
        }
        std::swap(two_back, prev);
        std::swap(prev, cur);
    }
    return prev[b.size()];
}

// Case is ignored (both sides are lowered before measuring), so "BTL_SM_EAGER" finds
// "btl_sm_eager" at distance 0: a user who typed the name in the wrong case meant it.
std::string closest_name(std::string_view name, const std::vector<std::string> &candidates) {
    const std::string key = lowered(name);
    const size_t limit = max_typo_distance(name.size());
    size_t best_distance = std::numeric_limits<size_t>::max();
    const std::string *best = nullptr;
    for (const std::string &candidate : candidates) {
        // The distance is at least the length difference: skip the quadratic work when that
        // alone rules a candidate out (user-supplied names can be arbitrarily long).
        const size_t longer = std::max(candidate.size(), key.size());
        if (longer - std::min(candidate.size(), key.size()) > limit) continue;
        const size_t d = edit_distance(key, lowered(candidate));
        if (d > limit) continue;
        if (d < best_distance || (d == best_distance && candidate < *best)) {
            best_distance = d;
            best = &candidate;
        }
    }
    return best ? *best : std::string();
}

}  // namespace plexus::mca
