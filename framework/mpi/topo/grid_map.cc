// Recursive bisection of grid and processes together. The processes are sorted by (node, package,
// NUMA, L3, L2, core) groups, so every group is a contiguous run; each step splits the run at a
// boundary of the coarsest level that still differs, and the grid region into a part of exactly
// that many cells taken along its longest extent, so a group ends up in a compact block.
#include "mpi/topo/grid_map.h"

#include <algorithm>
#include <numeric>
#include <tuple>

#include "mpi/topo/cart_geometry.h"

namespace plexus::mpi::topo {
namespace {

using Cell = std::vector<int>;  // coordinates

// The locality key at level -1 (node) .. kCore.
long long key_at(const Locality &l, int level) { return level < 0 ? l.node : l.group[level]; }

// Where to cut the sorted run procs[lo, hi): a group boundary of the coarsest level that differs,
// nearest the middle; the middle itself when all look alike.
size_t cut_point(const std::vector<Locality> &procs, const std::vector<int> &order, size_t lo, size_t hi) {
    const size_t mid = lo + (hi - lo) / 2;
    for (int level = -1; level < kLevels; ++level) {
        size_t best = 0;
        for (size_t i = lo + 1; i < hi; ++i) {
            if (key_at(procs[order[i]], level) == key_at(procs[order[i - 1]], level)) continue;
            const auto gap = [mid](size_t x) { return x > mid ? x - mid : mid - x; };
            if (best == 0 || gap(i) < gap(best)) best = i;
        }
        if (best) return best;
    }
    return mid;
}

// The dimension along which the region's coordinates spread furthest.
size_t longest_dimension(const std::vector<Cell> &cells, size_t lo, size_t hi) {
    size_t best = 0;
    int best_extent = -1;
    for (size_t d = 0; d < cells[lo].size(); ++d) {
        int low = cells[lo][d], high = low;
        for (size_t i = lo; i < hi; ++i) {
            low = std::min(low, cells[i][d]);
            high = std::max(high, cells[i][d]);
        }
        if (high - low > best_extent) {
            best_extent = high - low;
            best = d;
        }
    }
    return best;
}

struct Bisection {
    const std::vector<Locality> &procs;
    std::vector<int> order;   // process indices, sorted by locality
    std::vector<Cell> cells;  // grid positions, rearranged in place as regions are cut

    // cells[lo, hi) get the processes order[lo, hi).
    void split(size_t lo, size_t hi) {
        if (hi - lo <= 1) return;
        const size_t cut = cut_point(procs, order, lo, hi);
        const size_t d = longest_dimension(cells, lo, hi);
        std::stable_sort(cells.begin() + static_cast<long>(lo), cells.begin() + static_cast<long>(hi),
                         [d](const Cell &a, const Cell &b) { return a[d] != b[d] ? a[d] < b[d] : a < b; });
        split(lo, cut);
        split(cut, hi);
    }
};

int row_major(const std::vector<int> &dims, const Cell &c) {
    int r = 0;
    for (size_t i = 0; i < dims.size(); ++i) r = r * dims[i] + c[i];
    return r;
}

}  // namespace

long long placement_cost(const std::vector<int> &dims, const std::vector<int> &periods,
                         const std::vector<Locality> &procs, const std::vector<int> &placement) {
    Topology grid{Kind::Cart, dims, periods, {}, {}, {}, {}, {}, {}, false};
    long long cost = 0;
    for (size_t r = 0; r < placement.size(); ++r) {
        for (size_t d = 0; d < dims.size(); ++d) {
            int source, dest;
            cart_shift(grid, static_cast<int>(r), static_cast<int>(d), 1, &source, &dest);
            if (dest >= 0) cost += distance(procs[placement[r]], procs[placement[dest]]);
        }
    }
    return cost;
}

std::vector<int> grid_map(const std::vector<int> &dims, const std::vector<int> &periods,
                          const std::vector<Locality> &procs) {
    const size_t n = static_cast<size_t>(grid_size(dims));
    std::vector<int> identity(n);
    std::iota(identity.begin(), identity.end(), 0);
    if (n <= 1) return identity;

    Bisection b{procs, identity, {}};
    std::stable_sort(b.order.begin(), b.order.end(), [&procs](int x, int y) {
        const Locality &a = procs[x], &c = procs[y];
        return std::tie(a.node, a.group[kPackage], a.group[kNuma], a.group[kL3], a.group[kL2], a.group[kCore]) <
               std::tie(c.node, c.group[kPackage], c.group[kNuma], c.group[kL3], c.group[kL2], c.group[kCore]);
    });
    Topology grid{Kind::Cart, dims, periods, {}, {}, {}, {}, {}, {}, false};
    for (size_t r = 0; r < n; ++r) b.cells.push_back(cart_coords(grid, static_cast<int>(r)));
    b.split(0, n);

    std::vector<int> placement(n);
    for (size_t i = 0; i < n; ++i) placement[static_cast<size_t>(row_major(dims, b.cells[i]))] = b.order[i];
    if (placement_cost(dims, periods, procs, placement) < placement_cost(dims, periods, procs, identity))
        return placement;
    return identity;
}

}  // namespace plexus::mpi::topo
