#include "shm_tree.h"

#include <plexus/topology.h>

namespace plexus::coll_shm_inter {

int closeness(unsigned bits) {
    // The innermost shared level decides: a shared core beats any shared cache.
    static constexpr unsigned kLevels[] = {PLEXUS_TOPO_SHARE_PU,     PLEXUS_TOPO_SHARE_CORE,
                                           PLEXUS_TOPO_SHARE_L2,     PLEXUS_TOPO_SHARE_L3,
                                           PLEXUS_TOPO_SHARE_NUMA,   PLEXUS_TOPO_SHARE_PACKAGE,
                                           PLEXUS_TOPO_SHARE_MACHINE};
    constexpr int n = sizeof kLevels / sizeof kLevels[0];
    for (int i = 0; i < n; ++i)
        if (bits & kLevels[i]) return n - i;
    return 0;
}

std::vector<int> topology_order(int n, const std::vector<unsigned> &relation) {
    std::vector<int> order;
    if (n <= 0) return order;
    std::vector<bool> placed(static_cast<size_t>(n), false);
    order.push_back(0);
    placed[0] = true;
    while (static_cast<int>(order.size()) < n) {
        const int last = order.back();
        int best = -1, best_score = -1;
        for (int j = 0; j < n; ++j) {
            if (placed[static_cast<size_t>(j)]) continue;
            const int score = closeness(relation[static_cast<size_t>(last) * n + j]);
            if (score > best_score) best = j, best_score = score;
        }
        placed[static_cast<size_t>(best)] = true;
        order.push_back(best);
    }
    return order;
}

Tree binomial_tree(const std::vector<int> &order) {
    Tree t;
    const int n = static_cast<int>(order.size());
    t.parent.assign(static_cast<size_t>(n), -1);
    t.children.assign(static_cast<size_t>(n), {});
    if (n == 0) return t;
    t.root = order[0];
    // Children are listed nearest first: the neighbour (the closest in the order) usually
    // arrives first, so a fan-in waiting in this order rarely waits on a later one needlessly.
    for (int p = 1; p < n; ++p) {
        const int parent_pos = p & (p - 1);
        const int child = order[static_cast<size_t>(p)],
                  parent = order[static_cast<size_t>(parent_pos)];
        t.parent[static_cast<size_t>(child)] = parent;
        t.children[static_cast<size_t>(parent)].push_back(child);
    }
    return t;
}

}  // namespace plexus::coll_shm_inter
