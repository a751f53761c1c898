// An exact search over the non-increasing factorizations, not the usual greedy spreading of prime
// factors: greedy placement misses the balanced split for some products (e.g. 2^3 * 3^3 over
// three dimensions), and the number of factorizations of a process count is small.
#include "mpi/topo/dims_create.h"

#include <algorithm>

namespace plexus::mpi::topo {
namespace {

struct Search {
    std::vector<int> divisors;  // of the product to split, largest first
    std::vector<int> current, best;
    bool found = false;

    // Better: smaller spread, then lexicographically smaller (the largest dimension first).
    bool better(const std::vector<int> &a) const {
        if (!found) return true;
        const int spread_a = a.front() - a.back(), spread_b = best.front() - best.back();
        if (spread_a != spread_b) return spread_a < spread_b;
        return a < best;
    }

    // Chooses current[slot..] with product `rest`, each at most `limit`.
    void choose(size_t slot, int rest, int limit) {
        if (slot + 1 == current.size()) {
            if (rest > limit) return;
            current[slot] = rest;
            if (better(current)) {
                best = current;
                found = true;
            }
            return;
        }
        for (int f : divisors) {
            if (f > rest || f > limit || rest % f) continue;
            // The remaining slots hold factors <= f: f^(slots left) must reach rest.
            long long reach = f;
            for (size_t s = slot + 1; s < current.size() && reach < rest; ++s) reach *= f;
            if (reach < rest) break;
            current[slot] = f;
            choose(slot + 1, rest / f, f);
        }
    }
};

}  // namespace

void dims_create(int nnodes, std::vector<int> &dims) {
    int fixed = 1;
    size_t free_slots = 0;
    for (int d : dims) {
        if (d > 0) fixed *= d;
        else ++free_slots;
    }
    if (free_slots == 0) return;
    const int product = nnodes / fixed;
    Search search;
    // Only divisors can be factors: O(sqrt(product)) to list, at most 1536 of them for an int.
    for (int d = 1; static_cast<long long>(d) * d <= product; ++d) {
        if (product % d) continue;
        search.divisors.push_back(d);
        if (d != product / d) search.divisors.push_back(product / d);
    }
    std::sort(search.divisors.rbegin(), search.divisors.rend());
    search.current.assign(free_slots, 1);
    search.choose(0, product, product);
    size_t next = 0;
    for (int &d : dims)
        if (d == 0) d = search.best[next++];
}

}  // namespace plexus::mpi::topo
