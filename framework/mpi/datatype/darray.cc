// MPI_Type_create_darray's layout (MPI-2.2 4.1.4), one dimension at a time from the fastest:
// the elements this process owns along the dimension, each a copy of the type built so far for
// the faster dimensions, resized to the whole dimension (lb 0, gsize of them), so that the next
// slower dimension steps over full rows.
#include <algorithm>
#include <vector>

#include "mpi/datatype/construct.h"
#include "mpi/datatype/subarray.h"

namespace plexus::mpi {
namespace {

// The block of a dimension under MPI_DISTRIBUTE_BLOCK: darg, or by default the array divided as
// evenly as blocks allow, ceil(gsize / psize).
int block_size(int gsize, int darg, int psize) {
    return darg == MPI_DISTRIBUTE_DFLT_DARG ? (gsize + psize - 1) / psize : darg;
}

// One block of n elements of t (each ext bytes) starting at element `first`, in a dimension of
// gsize elements. Consumes nothing: t stays the caller's.
Datatype *block_dimension(Datatype *t, MPI_Aint ext, int gsize, MPI_Aint first, int n) {
    return place_and_resize(make_contiguous(n, t), first * ext, gsize * ext);
}

// This process's block of the dimension; the last processes may have a short one or none.
Datatype *block(Datatype *t, MPI_Aint ext, int gsize, int darg, int psize, int coord) {
    const int b = block_size(gsize, darg, psize);
    const long long first = static_cast<long long>(coord) * b;
    const int n = first >= gsize ? 0 : int(std::min<long long>(b, gsize - first));
    return block_dimension(t, ext, gsize, first < gsize ? first : 0, n);
}

// Blocks of c elements dealt round robin: this process has blocks coord, coord + psize, ...;
// the last block of the dimension may be short.
Datatype *cyclic(Datatype *t, MPI_Aint ext, int gsize, int darg, int psize, int coord) {
    const long long c = darg == MPI_DISTRIBUTE_DFLT_DARG ? 1 : darg;
    const long long nblocks = (gsize + c - 1) / c;
    const long long mine = coord < nblocks ? (nblocks - 1 - coord) / psize + 1 : 0;
    if (mine == 0) return block_dimension(t, ext, gsize, 0, 0);
    const long long last = coord + (mine - 1) * psize;       // the index of my last block
    const long long last_length = std::min(c, gsize - last * c);
    const long long full = last_length == c ? mine : mine - 1;
    Datatype *runs = make_hvector(int(full), int(c), MPI_Aint(psize * c) * ext, t);
    Datatype *whole;
    if (last_length == c) {
        whole = runs;
    } else {  // the full blocks, then the short last one
        Datatype *tail = make_contiguous(int(last_length), t);
        const int ones[2] = {1, 1};
        const MPI_Aint disps[2] = {0, MPI_Aint(last - coord) * c * ext};
        Datatype *const parts[2] = {runs, tail};
        whole = make_struct(2, ones, disps, parts);
        free_handle(runs);
        free_handle(tail);
    }
    return place_and_resize(whole, MPI_Aint(coord) * c * ext, gsize * ext);
}

}  // namespace

Datatype *make_darray(int size, int rank, int ndims, const int gsizes[], const int distribs[], const int dargs[],
                      const int psizes[], int order, Datatype *old) {
    // The process grid is row-major whatever the order (MPI-2.2 4.1.4).
    std::vector<int> coords(static_cast<size_t>(ndims));
    for (int d = ndims - 1, r = rank; d >= 0; --d) {
        coords[size_t(d)] = r % psizes[d];
        r /= psizes[d];
    }
    Datatype *t = old;
    MPI_Aint ext = old->extent;
    for (int k = ndims - 1; k >= 0; --k) {  // fastest dimension first
        const int d = order == MPI_ORDER_C ? k : ndims - 1 - k;
        Datatype *next;
        switch (distribs[d]) {
            case MPI_DISTRIBUTE_CYCLIC:
                next = cyclic(t, ext, gsizes[d], dargs[d], psizes[d], coords[size_t(d)]);
                break;
            case MPI_DISTRIBUTE_BLOCK:
                next = block(t, ext, gsizes[d], dargs[d], psizes[d], coords[size_t(d)]);
                break;
            default:  // MPI_DISTRIBUTE_NONE: the whole dimension (psizes[d] is 1)
                next = block_dimension(t, ext, gsizes[d], 0, gsizes[d]);
        }
        if (t != old) free_handle(t);
        t = next;
        ext *= gsizes[d];
    }
    std::vector<int> ints{size, rank, ndims};
    for (const int *a : {gsizes, distribs, dargs, psizes}) ints.insert(ints.end(), a, a + ndims);
    ints.push_back(order);
    return make_equivalent(Combiner::Darray, std::move(ints), old, t);
}

}  // namespace plexus::mpi
