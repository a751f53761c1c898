// Distributed graph topologies (MPI-2.2 7.5.4, 7.5.5): Dist_graph_create_adjacent,
// Dist_graph_create and the neighbour queries. The collective exchange is topo/dist_graph_exchange.
#include <algorithm>
#include <climits>
#include <numeric>

#include "mpi/api/profiling.h"
#include "mpi/arg_check.h"
#include "mpi/comm/comm_build_common.h"
#include "mpi/info/info.h"
#include "mpi/mpi_state.h"
#include "mpi/topo/dist_graph_exchange.h"
#include "mpi/topo/topo_checks.h"
#include "mpi/topo/topo_comm.h"

using namespace plexus::mpi;
using namespace plexus::mpi::topo;

namespace {

// Every process keeps its rank: with only its own edges known, no process could place the others.
std::vector<int> same_order(const Comm *comm) {
    std::vector<int> members(static_cast<size_t>(comm->size()));
    std::iota(members.begin(), members.end(), 0);
    return members;
}

int check_info_arg(const char *fn, const Comm *comm, MPI_Info info) {
    if (info == MPI_INFO_NULL || info_valid(info)) return MPI_SUCCESS;
    return report_errorf(comm, MPI_ERR_INFO, "%s: invalid info %p: not an info object (freed, or never made by MPI)", fn,
                         static_cast<const void *>(info));
}

// Copies `count` weights, or leaves the list empty for MPI_UNWEIGHTED.
std::vector<int> weight_list(const int *weights, int count) {
    if (weights == MPI_UNWEIGHTED || count == 0) return {};
    return std::vector<int>(weights, weights + count);
}

}  // namespace

extern "C" {

// MPI_UNWEIGHTED is this object's address; its value is never read.
int plexus_mpi_unweighted = 0;

PLEXUS_MPI_ALIAS(Dist_graph_create_adjacent)
int PMPI_Dist_graph_create_adjacent(MPI_Comm comm_old, int indegree, const int sources[], const int sourceweights[],
                                    int outdegree, const int destinations[], const int destweights[], MPI_Info info,
                                    int reorder, MPI_Comm *comm_dist_graph) {
    constexpr const char *fn = "MPI_Dist_graph_create_adjacent";
    running(fn);
    (void)reorder;
    if (int rc = check_topology_parent(fn, comm_old)) return rc;
    if (int rc = check_count(fn, comm_old, indegree, "indegree")) return rc;
    if (int rc = check_rank_list(fn, comm_old, sources, indegree, "sources")) return rc;
    if (int rc = check_weights(fn, comm_old, sourceweights, indegree, "sourceweights")) return rc;
    if (int rc = check_count(fn, comm_old, outdegree, "outdegree")) return rc;
    if (int rc = check_rank_list(fn, comm_old, destinations, outdegree, "destinations")) return rc;
    if (int rc = check_weights(fn, comm_old, destweights, outdegree, "destweights")) return rc;
    if (int rc = check_info_arg(fn, comm_old, info)) return rc;
    if (int rc = check_pointer(fn, comm_old, comm_dist_graph, "comm_dist_graph")) return rc;
    auto graph = std::make_shared<Topology>();
    graph->kind = Kind::DistGraph;
    graph->sources.assign(sources, sources + indegree);
    graph->destinations.assign(destinations, destinations + outdegree);
    graph->source_weights = weight_list(sourceweights, indegree);
    graph->destination_weights = weight_list(destweights, outdegree);
    graph->weighted = sourceweights != MPI_UNWEIGHTED && destweights != MPI_UNWEIGHTED;
    return make_topo_comm(fn, comm_old, same_order(comm_old), std::move(graph), comm_dist_graph);
}

PLEXUS_MPI_ALIAS(Dist_graph_create)
int PMPI_Dist_graph_create(MPI_Comm comm_old, int n, const int sources[], const int degrees[],
                           const int destinations[], const int weights[], MPI_Info info, int reorder,
                           MPI_Comm *comm_dist_graph) {
    constexpr const char *fn = "MPI_Dist_graph_create";
    running(fn);
    (void)reorder;
    if (int rc = check_topology_parent(fn, comm_old)) return rc;
    if (int rc = check_count(fn, comm_old, n, "n")) return rc;
    if (int rc = check_rank_list(fn, comm_old, sources, n, "sources")) return rc;
    if (n > 0)
        if (int rc = check_pointer(fn, comm_old, degrees, "degrees")) return rc;
    long long edges = 0;
    for (int i = 0; i < n; ++i) {
        if (degrees[i] < 0)
            return report_errorf(comm_old, MPI_ERR_ARG, "%s: invalid degrees[%d] = %d: degrees are 0 or more", fn, i,
                                 degrees[i]);
        edges += degrees[i];
    }
    if (edges > INT_MAX)
        return report_errorf(comm_old, MPI_ERR_ARG, "%s: degrees add up to %lld edges, more than an int counts", fn,
                             edges);
    const int nedges = static_cast<int>(edges);
    if (int rc = check_rank_list(fn, comm_old, destinations, nedges, "destinations")) return rc;
    if (int rc = check_weights(fn, comm_old, weights, nedges, "weights")) return rc;
    if (int rc = check_info_arg(fn, comm_old, info)) return rc;
    if (int rc = check_pointer(fn, comm_old, comm_dist_graph, "comm_dist_graph")) return rc;
    auto graph = std::make_shared<Topology>();
    graph->kind = Kind::DistGraph;
    graph->weighted = weights != MPI_UNWEIGHTED;
    const int *w = weights == MPI_UNWEIGHTED || nedges == 0 ? nullptr : weights;
    if (int rc = dist_graph_exchange(comm_old, n, sources, degrees, destinations, w, graph.get()))
        return build::step_failed(fn, comm_old, "sending the edges to their ends", rc);
    if (!graph->weighted) {
        graph->source_weights.clear();
        graph->destination_weights.clear();
    }
    return make_topo_comm(fn, comm_old, same_order(comm_old), std::move(graph), comm_dist_graph);
}

PLEXUS_MPI_ALIAS(Dist_graph_neighbors_count)
int PMPI_Dist_graph_neighbors_count(MPI_Comm comm, int *indegree, int *outdegree, int *weighted) {
    constexpr const char *fn = "MPI_Dist_graph_neighbors_count";
    running(fn);
    const Topology *t;
    if (int rc = check_topology(fn, comm, Kind::DistGraph, &t)) return rc;
    if (int rc = check_pointer(fn, comm, indegree, "indegree")) return rc;
    if (int rc = check_pointer(fn, comm, outdegree, "outdegree")) return rc;
    if (int rc = check_pointer(fn, comm, weighted, "weighted")) return rc;
    *indegree = static_cast<int>(t->sources.size());
    *outdegree = static_cast<int>(t->destinations.size());
    *weighted = t->weighted;
    return MPI_SUCCESS;
}

// The first maxindegree / maxoutdegree neighbours; the weights only where the graph has them and
// the caller did not pass MPI_UNWEIGHTED.
PLEXUS_MPI_ALIAS(Dist_graph_neighbors)
int PMPI_Dist_graph_neighbors(MPI_Comm comm, int maxindegree, int sources[], int sourceweights[], int maxoutdegree,
                              int destinations[], int destweights[]) {
    constexpr const char *fn = "MPI_Dist_graph_neighbors";
    running(fn);
    const Topology *t;
    if (int rc = check_topology(fn, comm, Kind::DistGraph, &t)) return rc;
    if (int rc = check_count(fn, comm, maxindegree, "maxindegree")) return rc;
    if (int rc = check_count(fn, comm, maxoutdegree, "maxoutdegree")) return rc;
    const size_t n_in = std::min(static_cast<size_t>(maxindegree), t->sources.size());
    const size_t n_out = std::min(static_cast<size_t>(maxoutdegree), t->destinations.size());
    if (n_in)
        if (int rc = check_pointer(fn, comm, sources, "sources")) return rc;
    if (n_out)
        if (int rc = check_pointer(fn, comm, destinations, "destinations")) return rc;
    const bool want_in = t->weighted && n_in && sourceweights != MPI_UNWEIGHTED;
    const bool want_out = t->weighted && n_out && destweights != MPI_UNWEIGHTED;
    if (want_in)
        if (int rc = check_pointer(fn, comm, sourceweights, "sourceweights")) return rc;
    if (want_out)
        if (int rc = check_pointer(fn, comm, destweights, "destweights")) return rc;
    std::copy_n(t->sources.begin(), n_in, sources);
    std::copy_n(t->destinations.begin(), n_out, destinations);
    if (want_in) std::copy_n(t->source_weights.begin(), n_in, sourceweights);
    if (want_out) std::copy_n(t->destination_weights.begin(), n_out, destweights);
    return MPI_SUCCESS;
}

}  // extern "C"
