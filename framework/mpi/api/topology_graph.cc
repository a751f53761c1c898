// Graph topologies given whole (MPI-2.2 7.5.3, 7.5.5, 7.5.7): Graph_create, the graph queries
// and Graph_map; and MPI_Topo_test for every kind. The model is in topo/.
#include <algorithm>
#include <numeric>

#include "mpi/api/profiling.h"
#include "mpi/arg_check.h"
#include "mpi/mpi_state.h"
#include "mpi/topo/topo_checks.h"
#include "mpi/topo/topo_comm.h"

using namespace plexus::mpi;
using namespace plexus::mpi::topo;

namespace {

int check_node(const char *fn, const Comm *comm, const Topology &t, int rank) {
    if (rank >= 0 && rank < t.nnodes()) return MPI_SUCCESS;
    return report_errorf(comm, MPI_ERR_RANK, "%s: invalid rank %d: the graph of %s has nodes 0..%d", fn, rank,
                         comm_name(comm).c_str(), t.nnodes() - 1);
}

// Node rank's neighbours: edges[index[rank - 1] .. index[rank]).
std::pair<int, int> neighbour_range(const Topology &t, int rank) {
    return {rank ? t.index[static_cast<size_t>(rank) - 1] : 0, t.index[static_cast<size_t>(rank)]};
}

}  // namespace

extern "C" {

// The graph keeps the old order whatever reorder says: its placement would need the edges'
// traffic, which the graph does not give (docs/mpi-api.md, "Process topologies").
PLEXUS_MPI_ALIAS(Graph_create)
int PMPI_Graph_create(MPI_Comm comm_old, int nnodes, const int index[], const int edges[], int reorder,
                      MPI_Comm *comm_graph) {
    constexpr const char *fn = "MPI_Graph_create";
    running(fn);
    (void)reorder;
    if (int rc = check_topology_parent(fn, comm_old)) return rc;
    if (int rc = check_graph(fn, comm_old, nnodes, index, edges)) return rc;
    if (int rc = check_pointer(fn, comm_old, comm_graph, "comm_graph")) return rc;
    auto graph = std::make_shared<Topology>();
    graph->kind = Kind::Graph;
    graph->index.assign(index, index + nnodes);
    const int nedges = nnodes ? index[nnodes - 1] : 0;
    graph->edges.assign(edges, edges + nedges);
    std::vector<int> members(static_cast<size_t>(nnodes));
    std::iota(members.begin(), members.end(), 0);
    return make_topo_comm(fn, comm_old, members, std::move(graph), comm_graph);
}

PLEXUS_MPI_ALIAS(Graphdims_get)
int PMPI_Graphdims_get(MPI_Comm comm, int *nnodes, int *nedges) {
    constexpr const char *fn = "MPI_Graphdims_get";
    running(fn);
    const Topology *t;
    if (int rc = check_topology(fn, comm, Kind::Graph, &t)) return rc;
    if (int rc = check_pointer(fn, comm, nnodes, "nnodes")) return rc;
    if (int rc = check_pointer(fn, comm, nedges, "nedges")) return rc;
    *nnodes = t->nnodes();
    *nedges = static_cast<int>(t->edges.size());
    return MPI_SUCCESS;
}

// maxindex and maxedges are the arrays' lengths: the first that many entries are written.
PLEXUS_MPI_ALIAS(Graph_get)
int PMPI_Graph_get(MPI_Comm comm, int maxindex, int maxedges, int index[], int edges[]) {
    constexpr const char *fn = "MPI_Graph_get";
    running(fn);
    const Topology *t;
    if (int rc = check_topology(fn, comm, Kind::Graph, &t)) return rc;
    if (int rc = check_count(fn, comm, maxindex, "maxindex")) return rc;
    if (int rc = check_count(fn, comm, maxedges, "maxedges")) return rc;
    const size_t n_index = std::min(static_cast<size_t>(maxindex), t->index.size());
    const size_t n_edges = std::min(static_cast<size_t>(maxedges), t->edges.size());
    if (n_index)
        if (int rc = check_pointer(fn, comm, index, "index")) return rc;
    if (n_edges)
        if (int rc = check_pointer(fn, comm, edges, "edges")) return rc;
    std::copy_n(t->index.begin(), n_index, index);
    std::copy_n(t->edges.begin(), n_edges, edges);
    return MPI_SUCCESS;
}

PLEXUS_MPI_ALIAS(Graph_neighbors_count)
int PMPI_Graph_neighbors_count(MPI_Comm comm, int rank, int *nneighbors) {
    constexpr const char *fn = "MPI_Graph_neighbors_count";
    running(fn);
    const Topology *t;
    if (int rc = check_topology(fn, comm, Kind::Graph, &t)) return rc;
    if (int rc = check_node(fn, comm, *t, rank)) return rc;
    if (int rc = check_pointer(fn, comm, nneighbors, "nneighbors")) return rc;
    const auto [first, end] = neighbour_range(*t, rank);
    *nneighbors = end - first;
    return MPI_SUCCESS;
}

PLEXUS_MPI_ALIAS(Graph_neighbors)
int PMPI_Graph_neighbors(MPI_Comm comm, int rank, int maxneighbors, int neighbors[]) {
    constexpr const char *fn = "MPI_Graph_neighbors";
    running(fn);
    const Topology *t;
    if (int rc = check_topology(fn, comm, Kind::Graph, &t)) return rc;
    if (int rc = check_node(fn, comm, *t, rank)) return rc;
    if (int rc = check_count(fn, comm, maxneighbors, "maxneighbors")) return rc;
    const auto [first, end] = neighbour_range(*t, rank);
    const int n = std::min(maxneighbors, end - first);
    if (n > 0)
        if (int rc = check_pointer(fn, comm, neighbors, "neighbors")) return rc;
    std::copy_n(t->edges.begin() + first, n, neighbors);
    return MPI_SUCCESS;
}

// Local, like MPI_Cart_map: rank r takes node r.
PLEXUS_MPI_ALIAS(Graph_map)
int PMPI_Graph_map(MPI_Comm comm, int nnodes, const int index[], const int edges[], int *newrank) {
    constexpr const char *fn = "MPI_Graph_map";
    running(fn);
    if (int rc = check_topology_parent(fn, comm)) return rc;
    if (int rc = check_graph(fn, comm, nnodes, index, edges)) return rc;
    if (int rc = check_pointer(fn, comm, newrank, "newrank")) return rc;
    *newrank = comm->rank < nnodes ? comm->rank : MPI_UNDEFINED;
    return MPI_SUCCESS;
}

PLEXUS_MPI_ALIAS(Topo_test)
int PMPI_Topo_test(MPI_Comm comm, int *status) {
    constexpr const char *fn = "MPI_Topo_test";
    running(fn);
    if (int rc = check_comm(fn, comm)) return rc;
    if (int rc = check_pointer(fn, comm, status, "status")) return rc;
    const Topology *t = topology_of(comm);
    if (!t) *status = MPI_UNDEFINED;
    else if (t->kind == Kind::Cart) *status = MPI_CART;
    else if (t->kind == Kind::Graph) *status = MPI_GRAPH;
    else *status = MPI_DIST_GRAPH;
    return MPI_SUCCESS;
}

}  // extern "C"
