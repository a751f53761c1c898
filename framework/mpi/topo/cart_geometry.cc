// Rank and coordinate arithmetic of Cartesian grids.
#include "mpi/topo/cart_geometry.h"

#include "mpi.h"

namespace plexus::mpi::topo {

long long grid_size(const std::vector<int> &dims) {
    long long n = 1;
    for (int d : dims) n *= d;
    return n;
}

std::vector<int> cart_coords(const Topology &t, int rank) {
    std::vector<int> coords(t.dims.size());
    for (size_t i = t.dims.size(); i-- > 0;) {
        coords[i] = rank % t.dims[i];
        rank /= t.dims[i];
    }
    return coords;
}

int cart_rank(const Topology &t, const int *coords, int *bad_dim) {
    int rank = 0;
    for (size_t i = 0; i < t.dims.size(); ++i) {
        int c = coords[i];
        if (c < 0 || c >= t.dims[i]) {
            if (!t.periods[i]) {
                *bad_dim = static_cast<int>(i);
                return -1;
            }
            c %= t.dims[i];
            if (c < 0) c += t.dims[i];
        }
        rank = rank * t.dims[i] + c;
    }
    return rank;
}

namespace {

// The rank one gets from rank by moving its coordinate along dim to c, or MPI_PROC_NULL.
int moved(const Topology &t, std::vector<int> coords, int dim, long long c) {
    const int extent = t.dims[static_cast<size_t>(dim)];
    if (c < 0 || c >= extent) {
        if (!t.periods[static_cast<size_t>(dim)]) return MPI_PROC_NULL;
        c %= extent;
        if (c < 0) c += extent;
    }
    coords[static_cast<size_t>(dim)] = static_cast<int>(c);
    int unused;
    return cart_rank(t, coords.data(), &unused);
}

}  // namespace

void cart_shift(const Topology &t, int rank, int dim, int disp, int *source, int *dest) {
    const std::vector<int> coords = cart_coords(t, rank);
    const long long here = coords[static_cast<size_t>(dim)];
    *dest = moved(t, coords, dim, here + disp);
    *source = moved(t, coords, dim, here - disp);
}

}  // namespace plexus::mpi::topo
