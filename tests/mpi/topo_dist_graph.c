/* Distributed graphs against the sequential model, at any number of ranks up to 16: one edge
 * list (self-loops and repeated edges included, some ranks without edges) generated alike on
 * every rank, each edge named by one rank. MPI_Dist_graph_create_adjacent (each rank gives its
 * in- and out-lists) and MPI_Dist_graph_create (each rank names its edges, grouped by source,
 * and a second time with one source per entry), weighted and MPI_UNWEIGHTED. For each:
 * Topo_test, Dist_graph_neighbors_count (degrees, weighted), Dist_graph_neighbors (the
 * neighbours and weights as multisets; under Plexus in the documented order: by the rank that
 * named the edge, then its position there, and for the adjacent form as given), short max
 * degrees, messages along every edge, Comm_dup keeping the graph. */
#include "topo_model.h"

#define TD_MAX_EDGES 400

struct edge {
    int namer, s, d, w;
};

static struct edge all[TD_MAX_EDGES];
static int nall, graphs;

static void make_edges(int size)
{
    int namer, k;
    uint64_t x = 12345;
    nall = 0;
    for (namer = 0; namer < size; ++namer) {
        int count = (namer % 3 == 2) ? 0 : 2 + namer % 4; /* every third rank names nothing */
        for (k = 0; k < count; ++k) {
            x = tu_mix64(x + 1);
            all[nall].namer = namer;
            all[nall].s = (int)(x % (uint64_t)size);
            all[nall].d = (int)((x >> 20) % (uint64_t)size);
            all[nall].w = (int)((x >> 40) % 100);
            ++nall;
        }
        if (size > 1 && namer == 0) { /* a repeated edge and a self-loop for sure */
            all[nall] = all[nall - 1];
            ++nall;
            all[nall].namer = 0, all[nall].s = all[nall].d = size - 1, all[nall].w = 7;
            ++nall;
        }
    }
}

/* The model's lists for rank me: in (sources) and out (destinations), in edge-list order. */
static int model_lists(int me, int *src, int *sw, int *dst, int *dw, int *nout)
{
    int i, nin = 0;
    *nout = 0;
    for (i = 0; i < nall; ++i) {
        if (all[i].d == me) {
            src[nin] = all[i].s;
            sw[nin++] = all[i].w;
        }
        if (all[i].s == me) {
            dst[*nout] = all[i].d;
            dw[(*nout)++] = all[i].w;
        }
    }
    return nin;
}

static int cmp_pair(const void *a, const void *b)
{
    const int *x = (const int *)a, *y = (const int *)b;
    return x[0] != y[0] ? (x[0] < y[0] ? -1 : 1) : (x[1] < y[1] ? -1 : x[1] > y[1]);
}

/* got and want as multisets of (rank, weight) pairs (weights ignored when unweighted). */
static void same_multiset(const char *what, int n, const int *got, const int *gw, const int *want, const int *ww,
                          int weighted, int exact_order)
{
    int *a = (int *)tu_malloc(sizeof(int) * 2 * (size_t)(n + 1)), *b = (int *)tu_malloc(sizeof(int) * 2 * (size_t)(n + 1));
    int i;
    for (i = 0; i < n; ++i) {
        a[2 * i] = got[i], a[2 * i + 1] = weighted ? gw[i] : 0;
        b[2 * i] = want[i], b[2 * i + 1] = weighted ? ww[i] : 0;
    }
    if (!exact_order) {
        qsort(a, (size_t)n, 2 * sizeof(int), cmp_pair);
        qsort(b, (size_t)n, 2 * sizeof(int), cmp_pair);
    }
    for (i = 0; i < n; ++i)
        CHECK(a[2 * i] == b[2 * i] && a[2 * i + 1] == b[2 * i + 1], "%s %d: (%d, w %d), expected (%d, w %d)", what, i,
              a[2 * i], a[2 * i + 1], b[2 * i], b[2 * i + 1]);
    free(a);
    free(b);
}

/* Every rank sends each out-edge's weight to its destination and receives one message per
 * in-edge; per source, the sum of what came equals the sum of the in-edges' weights. */
static void traffic(MPI_Comm comm, int nin, const int *src, int nout, const int *dst, const int *dw)
{
    MPI_Request reqs[2 * TD_MAX_EDGES];
    int data[TD_MAX_EDGES], i, me, size, got[16] = {0}, want[16] = {0};
    static int w_out[TD_MAX_EDGES];
    MPI_Comm_rank(comm, &me);
    MPI_Comm_size(comm, &size);
    for (i = 0; i < nin; ++i)
        CHECK_MPI(MPI_Irecv(&data[i], 1, MPI_INT, src[i], 11, comm, &reqs[i]));
    for (i = 0; i < nout; ++i) {
        w_out[i] = dw[i];
        CHECK_MPI(MPI_Isend(&w_out[i], 1, MPI_INT, dst[i], 11, comm, &reqs[nin + i]));
    }
    CHECK_MPI(MPI_Waitall(nin + nout, reqs, MPI_STATUSES_IGNORE));
    for (i = 0; i < nin; ++i)
        got[src[i]] += data[i];
    for (i = 0; i < nall; ++i)
        if (all[i].d == me)
            want[all[i].s] += all[i].w;
    for (i = 0; i < size; ++i)
        CHECK(got[i] == want[i], "rank %d got weights summing to %d from rank %d, expected %d", me, got[i], i, want[i]);
}

static void check(MPI_Comm comm, int weighted, int exact_order)
{
    int me, status, nin, nout, w, src[TD_MAX_EDGES], sw[TD_MAX_EDGES], dst[TD_MAX_EDGES], dw[TD_MAX_EDGES];
    int msrc[TD_MAX_EDGES], msw[TD_MAX_EDGES], mdst[TD_MAX_EDGES], mdw[TD_MAX_EDGES], mout, min, maxin, maxout;
    MPI_Comm_rank(comm, &me);
    CHECK_MPI(MPI_Topo_test(comm, &status));
    CHECK_EQ(status, MPI_DIST_GRAPH);
    min = model_lists(me, msrc, msw, mdst, mdw, &mout);
    CHECK_MPI(MPI_Dist_graph_neighbors_count(comm, &nin, &nout, &w));
    CHECK_EQ(nin, min);
    CHECK_EQ(nout, mout);
    CHECK_EQ(!!w, weighted);
#ifdef PLEXUS_MPI
    maxin = maxout = TD_MAX_EDGES; /* room for more than there is */
#else
    maxin = nin, maxout = nout; /* MPICH 4.0.2 reads maxindegree entries and crashes */
#endif
    if (weighted)
        CHECK_MPI(MPI_Dist_graph_neighbors(comm, maxin, src, sw, maxout, dst, dw));
    else
        CHECK_MPI(MPI_Dist_graph_neighbors(comm, maxin, src, MPI_UNWEIGHTED, maxout, dst, MPI_UNWEIGHTED));
    same_multiset("source", nin, src, sw, msrc, msw, weighted, exact_order);
    same_multiset("destination", nout, dst, dw, mdst, mdw, weighted, exact_order);
#ifdef PLEXUS_MPI
    if (nin > 1 && nout > 1) { /* short lists: only their length is written */
        int s2[2] = {-5, -5}, d2[2] = {-5, -5}, sw2[2] = {-5, -5}, dw2[2] = {-5, -5};
        CHECK_MPI(MPI_Dist_graph_neighbors(comm, 1, s2, weighted ? sw2 : MPI_UNWEIGHTED, 1, d2,
                                           weighted ? dw2 : MPI_UNWEIGHTED));
        CHECK(s2[0] == src[0] && s2[1] == -5 && d2[0] == dst[0] && d2[1] == -5, "short lists: %d %d / %d %d", s2[0],
              s2[1], d2[0], d2[1]);
        CHECK(sw2[1] == -5 && dw2[1] == -5 && (!weighted || (sw2[0] == sw[0] && dw2[0] == dw[0])),
              "short weight lists");
    }
#endif
    traffic(comm, nin, msrc, nout, mdst, mdw);
}

static void check_with_dup(MPI_Comm comm, int weighted, int exact_order)
{
    MPI_Comm dup;
    check(comm, weighted, exact_order);
    CHECK_MPI(MPI_Comm_dup(comm, &dup));
    check(dup, weighted, exact_order);
    MPI_Comm_free(&dup);
    MPI_Comm_free(&comm);
    ++graphs;
}

static void adjacent(int weighted)
{
    int src[TD_MAX_EDGES], sw[TD_MAX_EDGES], dst[TD_MAX_EDGES], dw[TD_MAX_EDGES], nin, nout;
    MPI_Comm comm;
    nin = model_lists(tu_rank, src, sw, dst, dw, &nout);
    CHECK_MPI(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, nin, src, weighted ? sw : MPI_UNWEIGHTED, nout, dst,
                                             weighted ? dw : MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &comm));
    CHECK(comm != MPI_COMM_NULL, "Dist_graph_create_adjacent gave MPI_COMM_NULL");
    check_with_dup(comm, weighted, 1); /* the adjacent form keeps the lists as given */
}

/* The edges this rank names, as (sources, degrees, destinations, weights); grouped: consecutive
 * edges of one source share an entry, else one entry per edge. */
static void general(int weighted, int grouped, int reorder)
{
    int sources[TD_MAX_EDGES], degrees[TD_MAX_EDGES], dests[TD_MAX_EDGES], weights[TD_MAX_EDGES], n = 0, e = 0, i;
    MPI_Comm comm;
    for (i = 0; i < nall; ++i) {
        if (all[i].namer != tu_rank)
            continue;
        if (grouped && n > 0 && sources[n - 1] == all[i].s) {
            ++degrees[n - 1];
        } else {
            sources[n] = all[i].s;
            degrees[n++] = 1;
        }
        dests[e] = all[i].d;
        weights[e++] = all[i].w;
    }
    CHECK_MPI(MPI_Dist_graph_create(MPI_COMM_WORLD, n, sources, degrees, dests, weighted ? weights : MPI_UNWEIGHTED,
                                    MPI_INFO_NULL, reorder, &comm));
    CHECK(comm != MPI_COMM_NULL, "Dist_graph_create gave MPI_COMM_NULL");
#ifdef PLEXUS_MPI
    check_with_dup(comm, weighted, 1);
#else
    check_with_dup(comm, weighted, 0);
#endif
}

int main(int argc, char **argv)
{
    int weighted;
    tu_init(&argc, &argv);
    tu_require_ranks(1, 16);
    make_edges(tu_size);
    for (weighted = 0; weighted <= 1; ++weighted) {
        adjacent(weighted);
        general(weighted, 1, 0);
        general(weighted, 0, 1);
    }
    return tu_finish("%d distributed graphs of %d edges equal the model (degrees, neighbours, weights, messages)",
                     graphs, nall);
}
