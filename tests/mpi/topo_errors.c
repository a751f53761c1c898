/* Each misuse of the topology calls under MPI_ERRORS_RETURN gives its class, and under Plexus a
 * message that names the argument (checked by a substring; every message is printed with -v):
 * bad grids (negative ndims, zero or negative dims: MPI_ERR_DIMS; larger than the communicator:
 * MPI_ERR_TOPOLOGY), Cartesian, graph and distributed-graph queries on communicators without
 * that topology (MPI_ERR_TOPOLOGY), ranks outside the communicator (MPI_ERR_RANK), coordinates
 * outside a non-periodic dimension, a bad direction, negative counts, an out-of-range edge, a
 * decreasing index, negative degrees and weights (MPI_ERR_ARG), inter-communicators and
 * MPI_COMM_NULL (MPI_ERR_COMM). Every rank makes the same calls; 2 ranks or more. Afterwards
 * the topologies still work. Open MPI and MPICH choose other classes for several of these (MPICH:
 * MPI_ERR_ARG for a negative ndims; Open MPI: MPI_ERR_ARG for most) and let some pass: for them
 * the classes are not compared and the misuses they accept are listed as "not detected". */
#include "topo_model.h"

static int verbose, checked;
#ifndef PLEXUS_MPI
static int undetected;
#endif

static void expect(int rc, int cls, const char *what, const char *needle)
{
    char text[MPI_MAX_ERROR_STRING];
    int got = tu_error_class(rc);
#ifdef PLEXUS_MPI
    CHECK(rc != MPI_SUCCESS && got == cls, "%s: returned class %d (%s), expected %d", what, got,
          tu_error_text(rc, text), cls);
#else
    if (rc == MPI_SUCCESS) { /* listed, not failed: the test is about Plexus's checks */
        if (tu_rank == 0)
            printf("  not detected: %s\n", what);
        ++undetected;
        return;
    }
#endif
    tu_error_text(rc, text);
#ifdef PLEXUS_MPI
    CHECK(strstr(text, needle) != NULL, "%s: message '%s' does not name '%s'", what, text, needle);
#else
    (void)needle;
#endif
    if (verbose && tu_rank == 0)
        printf("  %s: %s\n", what, text);
    ++checked;
}
#define EXPECT(call, cls, needle) expect((call), (cls), #call, (needle))

static void cart_misuse(MPI_Comm cart, MPI_Comm graph)
{
    int dims[2] = {2, 0}, periods[2] = {0, 0}, c[2], r, s, d, remain[2] = {1, 0};
    MPI_Comm out;
    EXPECT(MPI_Cart_create(MPI_COMM_WORLD, -1, dims, periods, 0, &out), MPI_ERR_DIMS, "ndims");
#ifndef MPICH_VERSION /* MPICH 4.0.2 makes a grid of these, then crashes */
    EXPECT(MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &out), MPI_ERR_DIMS, "dims[1]");
    dims[1] = -3;
    EXPECT(MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &out), MPI_ERR_DIMS, "dims[1]");
#endif
    dims[0] = tu_size, dims[1] = 2;
    EXPECT(MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &out), MPI_ERR_TOPOLOGY, "more than");
    dims[0] = tu_size + 1;
    EXPECT(MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 1, &out), MPI_ERR_TOPOLOGY, "more than");
    dims[0] = 1;
    EXPECT(MPI_Cart_create(MPI_COMM_NULL, 1, dims, periods, 0, &out), MPI_ERR_COMM, "MPI_COMM_NULL");
    EXPECT(MPI_Cart_map(MPI_COMM_WORLD, -2, dims, periods, &r), MPI_ERR_DIMS, "ndims");
    /* Cartesian calls where there is no grid */
    EXPECT(MPI_Cartdim_get(MPI_COMM_WORLD, &d), MPI_ERR_TOPOLOGY, "no topology");
#ifndef MPICH_VERSION /* MPICH 4.0.2 crashes */
    EXPECT(MPI_Cart_get(MPI_COMM_WORLD, 2, dims, periods, c), MPI_ERR_TOPOLOGY, "no topology");
#endif
    EXPECT(MPI_Cart_rank(graph, c, &r), MPI_ERR_TOPOLOGY, "graph topology");
    EXPECT(MPI_Cart_coords(MPI_COMM_SELF, 0, 2, c), MPI_ERR_TOPOLOGY, "Cartesian");
    EXPECT(MPI_Cart_shift(graph, 0, 1, &s, &d), MPI_ERR_TOPOLOGY, "Cartesian");
    EXPECT(MPI_Cart_sub(MPI_COMM_WORLD, remain, &out), MPI_ERR_TOPOLOGY, "Cartesian");
    /* on a grid of tu_size x 1, the first dimension not periodic */
    EXPECT(MPI_Cart_coords(cart, tu_size, 2, c), MPI_ERR_RANK, "rank");
    EXPECT(MPI_Cart_coords(cart, -1, 2, c), MPI_ERR_RANK, "rank");
    EXPECT(MPI_Cart_coords(cart, 0, -1, c), MPI_ERR_ARG, "maxdims");
    c[0] = tu_size, c[1] = 0;
    EXPECT(MPI_Cart_rank(cart, c, &r), MPI_ERR_ARG, "coords[0]");
    c[0] = -1;
    EXPECT(MPI_Cart_rank(cart, c, &r), MPI_ERR_ARG, "coords[0]");
    EXPECT(MPI_Cart_shift(cart, 2, 1, &s, &d), MPI_ERR_ARG, "direction");
    EXPECT(MPI_Cart_shift(cart, -1, 1, &s, &d), MPI_ERR_ARG, "direction");
    EXPECT(MPI_Cart_get(cart, -1, dims, periods, c), MPI_ERR_ARG, "maxdims");
    EXPECT(MPI_Cartdim_get(cart, NULL), MPI_ERR_ARG, "ndims");
}

static void graph_misuse(MPI_Comm cart, MPI_Comm graph)
{
    int index[3] = {1, 2, 3}, edges[3] = {1, 0, 0}, n, e, nb[4];
    MPI_Comm out;
    EXPECT(MPI_Graph_create(MPI_COMM_WORLD, -1, index, edges, 0, &out), MPI_ERR_ARG, "nnodes");
    EXPECT(MPI_Graph_create(MPI_COMM_WORLD, tu_size + 1, index, edges, 0, &out), MPI_ERR_TOPOLOGY, "nnodes");
    edges[1] = 2; /* a 2-node graph with an edge to node 2 */
    EXPECT(MPI_Graph_create(MPI_COMM_WORLD, 2, index, edges, 0, &out), MPI_ERR_ARG, "edges[1]");
    edges[1] = -1;
    EXPECT(MPI_Graph_map(MPI_COMM_WORLD, 2, index, edges, &n), MPI_ERR_ARG, "edges[1]");
    edges[1] = 0, index[1] = 0; /* index decreasing */
    EXPECT(MPI_Graph_create(MPI_COMM_WORLD, 2, index, edges, 0, &out), MPI_ERR_ARG, "index[1]");
    index[1] = 2;
    EXPECT(MPI_Graphdims_get(MPI_COMM_WORLD, &n, &e), MPI_ERR_TOPOLOGY, "no topology");
    EXPECT(MPI_Graph_get(cart, 3, 3, index, edges), MPI_ERR_TOPOLOGY, "Cartesian topology");
    EXPECT(MPI_Graph_neighbors_count(cart, 0, &n), MPI_ERR_TOPOLOGY, "graph");
    EXPECT(MPI_Graph_neighbors(MPI_COMM_WORLD, 0, 4, nb), MPI_ERR_TOPOLOGY, "graph");
    EXPECT(MPI_Graph_neighbors_count(graph, 2, &n), MPI_ERR_RANK, "rank 2");
    EXPECT(MPI_Graph_neighbors(graph, -1, 4, nb), MPI_ERR_RANK, "rank -1");
    EXPECT(MPI_Graph_neighbors(graph, 0, -1, nb), MPI_ERR_ARG, "maxneighbors");
    EXPECT(MPI_Graph_get(graph, -1, 3, index, edges), MPI_ERR_ARG, "maxindex");
}

static void dist_misuse(MPI_Comm cart)
{
    int src[2] = {0, tu_size}, w[2] = {1, -4}, deg[2] = {1, -1}, in, out, weighted;
    MPI_Comm c;
    EXPECT(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 2, src, MPI_UNWEIGHTED, 0, NULL, MPI_UNWEIGHTED,
                                          MPI_INFO_NULL, 0, &c), MPI_ERR_RANK, "sources[1]");
    EXPECT(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, -1, src, MPI_UNWEIGHTED, 0, NULL, MPI_UNWEIGHTED,
                                          MPI_INFO_NULL, 0, &c), MPI_ERR_ARG, "indegree");
    EXPECT(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 0, NULL, MPI_UNWEIGHTED, 2, src, w, MPI_INFO_NULL, 0, &c),
           MPI_ERR_RANK, "destinations[1]");
    src[1] = 0;
    EXPECT(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 0, NULL, MPI_UNWEIGHTED, 2, src, w, MPI_INFO_NULL, 0, &c),
           MPI_ERR_ARG, "destweights[1]");
    EXPECT(MPI_Dist_graph_create(MPI_COMM_WORLD, -1, src, deg, src, w, MPI_INFO_NULL, 0, &c), MPI_ERR_ARG, "n -1");
    EXPECT(MPI_Dist_graph_create(MPI_COMM_WORLD, 2, src, deg, src, w, MPI_INFO_NULL, 0, &c), MPI_ERR_ARG,
           "degrees[1]");
    deg[1] = 1, src[1] = -3;
#ifndef MPICH_VERSION /* MPICH 4.0.2 asserts (d_rank >= 0) and aborts */
    EXPECT(MPI_Dist_graph_create(MPI_COMM_WORLD, 1, src, deg, src + 1, MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &c),
           MPI_ERR_RANK, "destinations[0]");
#endif
    src[1] = 0;
    EXPECT(MPI_Dist_graph_create(MPI_COMM_WORLD, 2, src, deg, src, w, MPI_INFO_NULL, 0, &c), MPI_ERR_ARG,
           "weights[1]");
    EXPECT(MPI_Dist_graph_neighbors_count(cart, &in, &out, &weighted), MPI_ERR_TOPOLOGY, "distributed graph");
    EXPECT(MPI_Dist_graph_neighbors(MPI_COMM_WORLD, 0, NULL, MPI_UNWEIGHTED, 0, NULL, MPI_UNWEIGHTED),
           MPI_ERR_TOPOLOGY, "distributed graph");
}

/* An inter-communicator of the even and the odd world ranks. */
static void inter_misuse(void)
{
    MPI_Comm half, inter, out;
    int dims[1] = {1}, periods[1] = {0}, index[1] = {0}, status;
    CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, tu_rank % 2, tu_rank, &half));
    CHECK_MPI(MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, tu_rank % 2 ? 0 : 1, 3, &inter));
    EXPECT(MPI_Cart_create(inter, 1, dims, periods, 0, &out), MPI_ERR_COMM, "inter-communicator");
    EXPECT(MPI_Graph_create(inter, 1, index, NULL, 0, &out), MPI_ERR_COMM, "inter-communicator");
    EXPECT(MPI_Dist_graph_create_adjacent(inter, 0, NULL, MPI_UNWEIGHTED, 0, NULL, MPI_UNWEIGHTED, MPI_INFO_NULL, 0,
                                          &out), MPI_ERR_COMM, "inter-communicator");
    CHECK_MPI(MPI_Topo_test(inter, &status));
    CHECK_EQ(status, MPI_UNDEFINED);
    MPI_Comm_free(&inter);
    MPI_Comm_free(&half);
}

int main(int argc, char **argv)
{
    int dims[2], periods[2] = {0, 1}, index[2] = {1, 2}, edges[2] = {1, 0}, status, s, d;
    MPI_Comm cart, graph;
    tu_init(&argc, &argv);
    tu_require_ranks(2, 0);
    verbose = argc > 1 && strcmp(argv[1], "-v") == 0;
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    dims[0] = tu_size, dims[1] = 1;
    CHECK_MPI(MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &cart));
    CHECK_MPI(MPI_Graph_create(MPI_COMM_WORLD, 2, index, edges, 0, &graph));
    if (graph == MPI_COMM_NULL) /* ranks 2 and up: a graph of their own to misuse */
        CHECK_MPI(MPI_Graph_create(MPI_COMM_SELF, 1, index, edges + 1, 0, &graph)); /* a self-loop */
    EXPECT(MPI_Topo_test(MPI_COMM_NULL, &status), MPI_ERR_COMM, "MPI_COMM_NULL");
    cart_misuse(cart, graph);
    graph_misuse(cart, graph);
    dist_misuse(cart);
    inter_misuse();
    /* still working */
    CHECK_MPI(MPI_Cart_shift(cart, 0, 1, &s, &d));
    CHECK_EQ(d, tu_rank + 1 < tu_size ? tu_rank + 1 : MPI_PROC_NULL);
    MPI_Comm_free(&cart);
    MPI_Comm_free(&graph);
#ifdef PLEXUS_MPI
    return tu_finish("%d misuses gave their class and a message naming the argument", checked);
#else
    return tu_finish("%d misuses failed, %d not detected", checked, undetected);
#endif
}
