// MPI_Comm_split's grouping, as a pure function: from every process's (color, key), the old
// ranks of the processes sharing a color, ordered by key, ties by old rank.
#pragma once

#include <cstdint>
#include <vector>

namespace plexus::mpi {

struct ColorKey {
    int32_t color;
    int32_t key;
};

// The old ranks (indices of all) with the given color, in new-rank order. Empty for MPI_UNDEFINED.
std::vector<int> split_members(const std::vector<ColorKey> &all, int color);

}  // namespace plexus::mpi
