// The topology calls' argument checks and their messages.
#include "mpi/topo/topo_checks.h"

#include "mpi/arg_check.h"
#include "mpi/error_report.h"

namespace plexus::mpi::topo {
namespace {

const char *kind_name(Kind k) {
    switch (k) {
    case Kind::Cart:
        return "a Cartesian";
    case Kind::Graph:
        return "a graph";
    case Kind::DistGraph:
        return "a distributed graph";
    }
    return "an unknown";
}

}  // namespace

int check_topology(const char *function, const Comm *comm, Kind kind, const Topology **out) {
    if (int rc = check_comm(function, comm)) return rc;
    const Topology *t = comm->topo.get();
    if (t && t->kind == kind) {
        *out = t;
        return MPI_SUCCESS;
    }
    return report_errorf(comm, MPI_ERR_TOPOLOGY, "%s: %s has %s topology; this call needs %s topology", function,
                         comm_name(comm).c_str(), t ? kind_name(t->kind) : "no", kind_name(kind));
}

int check_topology_parent(const char *function, const Comm *comm) {
    if (int rc = check_comm(function, comm)) return rc;
    if (!comm->inter) return MPI_SUCCESS;
    return report_errorf(comm, MPI_ERR_COMM,
                         "%s: comm_old %s is an inter-communicator; topologies are built on intra-communicators",
                         function, comm_name(comm).c_str());
}

int check_count(const char *function, const Comm *comm, int value, const char *what) {
    if (value >= 0) return MPI_SUCCESS;
    return report_errorf(comm, MPI_ERR_ARG, "%s: invalid %s %d: it must be 0 or more", function, what, value);
}

int check_grid(const char *function, const Comm *comm, int ndims, const int *dims, const int *periods) {
    if (ndims < 0)
        return report_errorf(comm, MPI_ERR_DIMS, "%s: invalid ndims %d: a grid has 0 or more dimensions", function,
                             ndims);
    if (ndims > 0) {
        if (int rc = check_pointer(function, comm, dims, "dims")) return rc;
        if (int rc = check_pointer(function, comm, periods, "periods")) return rc;
    }
    long long cells = 1;
    bool stopped = false;  // cells stops growing once too large (no overflow): a lower bound then
    for (int i = 0; i < ndims; ++i) {
        if (dims[i] <= 0)
            return report_errorf(comm, MPI_ERR_DIMS, "%s: invalid dims[%d] = %d: every dimension has 1 or more processes",
                                 function, i, dims[i]);
        if (cells <= comm->size()) cells *= dims[i];
        else stopped = true;
    }
    if (cells > comm->size())
        return report_errorf(comm, MPI_ERR_TOPOLOGY, "%s: the grid of dims has %s%lld processes, more than the %d of %s",
                             function, stopped ? "at least " : "", cells, comm->size(),
                             comm_name(comm).c_str());
    return MPI_SUCCESS;
}

int check_graph(const char *function, const Comm *comm, int nnodes, const int *index, const int *edges) {
    if (int rc = check_count(function, comm, nnodes, "nnodes")) return rc;
    if (nnodes > comm->size())
        return report_errorf(comm, MPI_ERR_TOPOLOGY, "%s: nnodes %d is more than the %d processes of %s", function,
                             nnodes, comm->size(), comm_name(comm).c_str());
    if (nnodes == 0) return MPI_SUCCESS;
    if (int rc = check_pointer(function, comm, index, "index")) return rc;
    for (int i = 0; i < nnodes; ++i) {
        const int previous = i ? index[i - 1] : 0;
        if (index[i] < previous)
            return report_errorf(comm, MPI_ERR_ARG,
                                 "%s: invalid index[%d] = %d: index holds cumulative degrees, so it must be at least "
                                 "%s (%d)",
                                 function, i, index[i], i ? "the entry before it" : "0", previous);
    }
    const int nedges = index[nnodes - 1];
    if (nedges > 0)
        if (int rc = check_pointer(function, comm, edges, "edges")) return rc;
    for (int j = 0; j < nedges; ++j)
        if (edges[j] < 0 || edges[j] >= nnodes)
            return report_errorf(comm, MPI_ERR_ARG, "%s: invalid edges[%d] = %d: the graph's nodes are 0..%d", function,
                                 j, edges[j], nnodes - 1);
    return MPI_SUCCESS;
}

int check_rank_list(const char *function, const Comm *comm, const int *ranks, int count, const char *what) {
    if (count == 0) return MPI_SUCCESS;
    if (int rc = check_pointer(function, comm, ranks, what)) return rc;
    for (int i = 0; i < count; ++i)
        if (ranks[i] < 0 || ranks[i] >= comm->size())
            return report_errorf(comm, MPI_ERR_RANK, "%s: invalid %s[%d] = %d: %s has ranks 0..%d", function, what, i,
                                 ranks[i], comm_name(comm).c_str(), comm->size() - 1);
    return MPI_SUCCESS;
}

int check_weights(const char *function, const Comm *comm, const int *weights, int count, const char *what) {
    if (weights == MPI_UNWEIGHTED || count == 0) return MPI_SUCCESS;
    if (!weights)
        return report_errorf(comm, MPI_ERR_ARG, "%s: %s is NULL with %d edges (MPI_UNWEIGHTED says there are none)",
                             function, what, count);
    for (int i = 0; i < count; ++i)
        if (weights[i] < 0)
            return report_errorf(comm, MPI_ERR_ARG, "%s: invalid %s[%d] = %d: weights are 0 or more", function, what, i,
                                 weights[i]);
    return MPI_SUCCESS;
}

}  // namespace plexus::mpi::topo
