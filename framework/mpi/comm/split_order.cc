// Ordering the members of one color of MPI_Comm_split.
#include "mpi/comm/split_order.h"

#include <algorithm>

#include "mpi.h"

namespace plexus::mpi {

std::vector<int> split_members(const std::vector<ColorKey> &all, int color) {
    std::vector<int> members;
    if (color == MPI_UNDEFINED) return members;
    for (size_t r = 0; r < all.size(); ++r)
        if (all[r].color == color) members.push_back(static_cast<int>(r));
    // Stable: equal keys keep the old rank order.
    std::stable_sort(members.begin(), members.end(), [&](int a, int b) { return all[a].key < all[b].key; });
    return members;
}

}  // namespace plexus::mpi
