/* Graph topologies (MPI_Graph_create) against the sequential model, at any number of ranks up to
 * 16: a ring, a star, a complete graph with self-loops, a multigraph (every edge twice), a graph
 * without edges, a ring over all ranks but one; reorder 0 and 1. For each: who gets
 * MPI_COMM_NULL (reorder 0: ranks >= nnodes), Topo_test, Graphdims_get, Graph_get (whole, and the
 * first entries only when maxindex/maxedges are short), Graph_neighbors_count and
 * Graph_neighbors of every node, messages along every edge (each node hears from exactly the
 * nodes that list it, as often as they do), Comm_dup keeping the graph, Graph_map. */
#include "topo_model.h"

static int graphs;

static void build(struct tm_graph *g, int kind, int size)
{
    int i, j, e = 0;
    g->nnodes = kind == 5 ? size - 1 : size;
    for (i = 0; i < g->nnodes; ++i) {
        switch (kind) {
        case 0: /* ring */
        case 5:
            g->edges[e++] = (i + g->nnodes - 1) % g->nnodes;
            g->edges[e++] = (i + 1) % g->nnodes;
            break;
        case 1: /* star around 0 */
            if (i == 0)
                for (j = 1; j < g->nnodes; ++j)
                    g->edges[e++] = j;
            else
                g->edges[e++] = 0;
            break;
        case 2: /* complete, self-loops included */
            for (j = 0; j < g->nnodes; ++j)
                g->edges[e++] = j;
            break;
        case 3: /* every edge twice */
            g->edges[e++] = (i + 1) % g->nnodes;
            g->edges[e++] = (i + 1) % g->nnodes;
            break;
        default: /* no edges */
            break;
        }
        g->index[i] = e;
    }
}

/* Every node sends its rank along each of its edges and receives as many messages as edges point
 * at it; the count from each sender must match the model. */
static void traffic(MPI_Comm comm, const struct tm_graph *g, int me)
{
    int i, j, in = 0, got[16] = {0}, want[16] = {0}, *data;
    MPI_Request *reqs;
    const int *nb = tm_neighbours(g, me);
    for (i = 0; i < g->nnodes; ++i)
        for (j = 0; j < tm_degree(g, i); ++j)
            if (tm_neighbours(g, i)[j] == me) {
                ++want[i];
                ++in;
            }
    reqs = (MPI_Request *)tu_malloc(sizeof(MPI_Request) * (size_t)(in + tm_degree(g, me) + 1));
    data = (int *)tu_malloc(sizeof(int) * (size_t)(in + 1));
    for (i = 0; i < in; ++i)
        CHECK_MPI(MPI_Irecv(&data[i], 1, MPI_INT, MPI_ANY_SOURCE, 9, comm, &reqs[i]));
    for (j = 0; j < tm_degree(g, me); ++j)
        CHECK_MPI(MPI_Isend(&me, 1, MPI_INT, nb[j], 9, comm, &reqs[in + j]));
    CHECK_MPI(MPI_Waitall(in + tm_degree(g, me), reqs, MPI_STATUSES_IGNORE));
    for (i = 0; i < in; ++i) {
        CHECK(data[i] >= 0 && data[i] < g->nnodes, "message from node %d", data[i]);
        ++got[data[i]];
    }
    for (i = 0; i < g->nnodes; ++i)
        CHECK(got[i] == want[i], "node %d heard %d times from node %d, expected %d", me, got[i], i, want[i]);
    free(reqs);
    free(data);
}

static void check_graph(MPI_Comm comm, const struct tm_graph *g)
{
    int status, nn, ne, index[16], edges[256], i, j, count, nb[256], me;
    const int nedges = g->nnodes ? g->index[g->nnodes - 1] : 0;
    CHECK_MPI(MPI_Topo_test(comm, &status));
    CHECK_EQ(status, MPI_GRAPH);
    CHECK_MPI(MPI_Graphdims_get(comm, &nn, &ne));
    CHECK_EQ(nn, g->nnodes);
    CHECK_EQ(ne, nedges);
    CHECK_MPI(MPI_Graph_get(comm, 16, 256, index, edges));
    for (i = 0; i < nn; ++i)
        CHECK_EQ(index[i], g->index[i]);
    for (i = 0; i < ne; ++i)
        CHECK_EQ(edges[i], g->edges[i]);
#ifdef PLEXUS_MPI
    /* Short arrays: only their length is written. */
    index[1] = edges[1] = -5;
    CHECK_MPI(MPI_Graph_get(comm, 1, 1, index, edges));
    CHECK(index[0] == g->index[0] && index[1] == -5, "Graph_get(maxindex 1) wrote %d %d", index[0], index[1]);
    CHECK(edges[1] == -5 && (ne == 0 || edges[0] == g->edges[0]), "Graph_get(maxedges 1) wrote %d %d", edges[0],
          edges[1]);
#endif
    for (i = 0; i < nn; ++i) {
        CHECK_MPI(MPI_Graph_neighbors_count(comm, i, &count));
        CHECK_EQ(count, tm_degree(g, i));
        CHECK_MPI(MPI_Graph_neighbors(comm, i, 256, nb));
        for (j = 0; j < count; ++j)
            CHECK(nb[j] == tm_neighbours(g, i)[j], "node %d neighbour %d is %d, expected %d", i, j, nb[j],
                  tm_neighbours(g, i)[j]);
    }
    MPI_Comm_rank(comm, &me);
    traffic(comm, g, me);
}

static void graph(const struct tm_graph *g, int reorder)
{
    MPI_Comm comm, dup;
    int in, members, map, size;
    CHECK_MPI(MPI_Graph_create(MPI_COMM_WORLD, g->nnodes, g->index, g->edges, reorder, &comm));
    in = comm != MPI_COMM_NULL;
    CHECK_MPI(MPI_Allreduce(&in, &members, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
    CHECK_EQ(members, g->nnodes);
    if (!reorder)
        CHECK_EQ(in, tu_rank < g->nnodes);
    CHECK_MPI(MPI_Graph_map(MPI_COMM_WORLD, g->nnodes, g->index, g->edges, &map));
#ifdef PLEXUS_MPI
    CHECK_EQ(map, tu_rank < g->nnodes ? tu_rank : MPI_UNDEFINED);
#elif !defined(OPEN_MPI) /* Open MPI 4.1 gives ranks beyond the graph their own rank */
    CHECK(map == MPI_UNDEFINED || (map >= 0 && map < g->nnodes), "Graph_map gave %d", map);
#endif
    if (in) {
        MPI_Comm_size(comm, &size);
        CHECK_EQ(size, g->nnodes);
        check_graph(comm, g);
        CHECK_MPI(MPI_Comm_dup(comm, &dup));
        check_graph(dup, g);
        MPI_Comm_free(&dup);
        MPI_Comm_free(&comm);
    }
    ++graphs;
}

int main(int argc, char **argv)
{
    struct tm_graph g;
    int kind, reorder;
    tu_init(&argc, &argv);
    tu_require_ranks(1, 16);
    for (kind = 0; kind <= 5; ++kind) {
        if (kind == 5 && tu_size < 2)
            continue;
        build(&g, kind, tu_size);
        for (reorder = 0; reorder <= 1; ++reorder)
            graph(&g, reorder);
    }
    return tu_finish("%d graphs equal the model (dims, index, edges, neighbours, messages on every edge)", graphs);
}
