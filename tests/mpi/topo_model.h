/* The topology tests' sequential model (tests/mpi/README.md, "Process topologies"): grid
 * coordinates, ranks and shifts, the balanced factorization MPI_Dims_create must find, and the
 * neighbour lists of graphs, each computed here independently of the library (brute force where
 * that is simplest), so a test compares what MPI answers with what it must answer. Header-only,
 * MPI-2.2 C. */
#ifndef PLEXUS_TESTS_MPI_TOPO_MODEL_H
#define PLEXUS_TESTS_MPI_TOPO_MODEL_H

#include "test_util.h"

#define TM_MAX_DIMS 8

/* ------------------------------------------------------------------ grids */

/* Coordinates of rank in a row-major grid (the last dimension fastest), by counting: walk the
 * ranks in order, incrementing an odometer. */
static inline void tm_coords(int ndims, const int *dims, int rank, int *coords)
{
    int i, r;
    for (i = 0; i < ndims; ++i)
        coords[i] = 0;
    for (r = 0; r < rank; ++r) {
        for (i = ndims - 1; i >= 0; --i) {
            if (++coords[i] < dims[i])
                break;
            coords[i] = 0;
        }
    }
}

/* The rank at coords, or -1 when a non-periodic coordinate is outside; periodic ones wrap. */
static inline int tm_rank(int ndims, const int *dims, const int *periods, const int *coords)
{
    int i, rank = 0;
    for (i = 0; i < ndims; ++i) {
        int c = coords[i];
        if (c < 0 || c >= dims[i]) {
            if (!periods[i])
                return -1;
            while (c < 0)
                c += dims[i];
            c %= dims[i];
        }
        rank = rank * dims[i] + c;
    }
    return rank;
}

/* MPI_Cart_shift's answer for rank: the rank disp steps along dim (dest) and -disp (source),
 * MPI_PROC_NULL off the end of a non-periodic dimension. */
static inline void tm_shift(int ndims, const int *dims, const int *periods, int rank, int dim, int disp,
                            int *source, int *dest)
{
    int c[TM_MAX_DIMS], r;
    tm_coords(ndims, dims, rank, c);
    c[dim] += disp;
    r = tm_rank(ndims, dims, periods, c);
    *dest = r < 0 ? MPI_PROC_NULL : r;
    c[dim] -= 2 * disp;
    r = tm_rank(ndims, dims, periods, c);
    *source = r < 0 ? MPI_PROC_NULL : r;
}

static inline int tm_product(int ndims, const int *dims)
{
    int i, p = 1;
    for (i = 0; i < ndims; ++i)
        p *= dims[i];
    return p;
}

/* ------------------------------------------------------------------ MPI_Dims_create */

/* Every way to fill the k free slots with divisors of m (any order), by a mixed-radix counter
 * over the divisors: the best by the documented rule is kept (smallest spread max - min of the
 * free entries, then the lexicographically smallest non-increasing list). */
static inline int tm_better(int k, const int *a, const int *b)
{
    int i;
    if (a[0] - a[k - 1] != b[0] - b[k - 1])
        return a[0] - a[k - 1] < b[0] - b[k - 1];
    for (i = 0; i < k; ++i)
        if (a[i] != b[i])
            return a[i] < b[i];
    return 0;
}

static inline void tm_sort_desc(int k, int *v)
{
    int i, j;
    for (i = 1; i < k; ++i)
        for (j = i; j > 0 && v[j] > v[j - 1]; --j) {
            int t = v[j];
            v[j] = v[j - 1];
            v[j - 1] = t;
        }
}

/* The expected dims: the fixed (non-zero) entries stay, the free ones get the best factors in
 * non-increasing order. The search is (divisors of m)^k. */
static inline void tm_dims_create(int nnodes, int ndims, int *dims)
{
    int fixed = 1, k = 0, i, m, best[TM_MAX_DIMS], cur[TM_MAX_DIMS], have = 0, div[256], ndiv = 0;
    for (i = 0; i < ndims; ++i) {
        if (dims[i])
            fixed *= dims[i];
        else
            ++k;
    }
    if (k == 0)
        return;
    m = nnodes / fixed;
    for (i = 1; i <= m; ++i)
        if (m % i == 0 && ndiv < 256)
            div[ndiv++] = i;
    for (i = 0; i < k; ++i)
        cur[i] = 0;
    for (;;) {
        long long p = 1;
        int s[TM_MAX_DIMS];
        for (i = 0; i < k; ++i)
            p *= div[cur[i]];
        if (p == m) {
            for (i = 0; i < k; ++i)
                s[i] = div[cur[i]];
            tm_sort_desc(k, s);
            if (!have || tm_better(k, s, best)) {
                memcpy(best, s, sizeof(int) * (size_t)k);
                have = 1;
            }
        }
        for (i = 0; i < k; ++i) { /* next combination */
            if (++cur[i] < ndiv)
                break;
            cur[i] = 0;
        }
        if (i == k)
            break;
    }
    for (i = 0, k = 0; i < ndims; ++i)
        if (!dims[i])
            dims[i] = best[k++];
}

/* ------------------------------------------------------------------ graphs */

/* A graph in MPI_Graph_create's form. */
struct tm_graph {
    int nnodes;
    int index[16];
    int edges[256];
};

static inline int tm_degree(const struct tm_graph *g, int node)
{
    return g->index[node] - (node ? g->index[node - 1] : 0);
}

static inline const int *tm_neighbours(const struct tm_graph *g, int node)
{
    return g->edges + (node ? g->index[node - 1] : 0);
}

#endif
