// The chain walk behind every collective call, and the messages of its failures.
#include "mpi/coll/coll_dispatch.h"

#include <string>

#include "base/output.h"
#include "mpi/coll/coll_handles.h"
#include "mpi/coll/coll_state.h"
#include "mpi/error_codes.h"
#include "mpi/error_report.h"

namespace plexus::mpi::coll {
namespace {

// The message of the latest failure, and how deep in nested dispatches we are: a component's
// nested call that fails leaves its message here, and the outer call's message includes it. One
// thread calls MPI (MPI_THREAD_FUNNELED), so plain globals do.
std::string g_failure;
int g_depth = 0;

struct Depth {
    Depth() {
        if (g_depth++ == 0 && !g_failure.empty()) g_failure.clear();
    }
    ~Depth() { --g_depth; }
};

std::string tried(const Chains &chains, int fn) {
    std::string names;
    for (const Link &l : chains.chain[static_cast<size_t>(fn)]) names += (names.empty() ? "" : ", ") + chains.name(l);
    return names;
}

[[gnu::cold]] int failed(const Comm *comm, int fn, const Chains &chains, const Link &link, int rc) {
    int cls = error_class_of(rc);
    if (cls <= MPI_SUCCESS) cls = MPI_ERR_INTERN;  // not an error class: the component broke the contract
    std::string msg = std::string(mpi_function_name(fn)) + ": coll component " + chains.name(link) + " failed on " +
                      comm_name(comm) + " with " + class_name(cls);
    if (rc != cls && cls == MPI_ERR_INTERN) msg += " (it returned " + std::to_string(rc) + ", which is no MPI error class)";
    if (!g_failure.empty()) msg += ": " + g_failure;  // what its own nested call said
    else if (const char *text = class_text(cls)) msg += std::string(": ") + text;
    g_failure = std::move(msg);
    return cls;
}

[[gnu::cold]] int unserved(const Comm *comm, int fn, const Chains &chains) {
    std::string msg = std::string(mpi_function_name(fn)) + ": no coll component can serve it on " + comm_name(comm);
    if (chains.chain[static_cast<size_t>(fn)].empty()) {
        std::string selected;
        for (const std::string &c : chains.components) selected += (selected.empty() ? "" : ", ") + c;
        msg += selected.empty() ? ": no coll component was selected for this communicator (check the coll parameter)"
                                : ": none of the selected components (" + selected + ") offers " + function_name(fn);
    } else {
        msg += ": every component declined this call (tried: " + tried(chains, fn) + ")";
    }
    for (const std::string &note : chains.notes) msg += "; " + note;
    g_failure = std::move(msg);
    return MPI_ERR_UNSUPPORTED_OPERATION;
}

[[gnu::cold]] void trace_decline(const Comm *comm, int fn, const Chains &chains, const Link &link) {
    // A size table's hand-over happens on every call of that size: no message built unless shown.
    if (mca::framework_verbosity("coll") < PLEXUS_LOG_TRACE) return;
    mca::emit(PLEXUS_LOG_TRACE, "coll", std::string(function_name(fn)) + " on " + comm_name(comm) + ": " +
                                            chains.name(link) + " declined, trying the next");
}

// Calls the chain of fn on comm: call(module) runs the module's function.
template <class Call>
int run(plexus_coll_comm_t *h, int fn, Call &&call) {
    Comm *comm = object(h);
    Depth depth;
    const Chains &chains = chains_of(comm);
    for (const Link &link : chains.chain[static_cast<size_t>(fn)]) {
        const int rc = call(link.module);
        if (rc == PLEXUS_COLL_SUCCESS) [[likely]]
            return rc;
        if (rc != PLEXUS_COLL_DECLINE) return failed(comm, fn, chains, link, rc);
        trace_decline(comm, fn, chains, link);
    }
    return unserved(comm, fn, chains);
}

}  // namespace

int report_failure(Comm *comm, int error_class) {
    std::string msg = std::move(g_failure);
    g_failure.clear();
    if (msg.empty()) msg = std::string("collective call failed: ") + (class_text(error_class) ? class_text(error_class) : "");
    return report_error(comm, error_class, msg);
}

namespace dispatch {

int barrier(plexus_coll_module_t *, plexus_coll_comm_t *comm) {
    return run(comm, PLEXUS_COLL_BARRIER, [&](plexus_coll_module_t *m) { return m->fn.barrier(m, comm); });
}

int bcast(plexus_coll_module_t *, void *buf, int count, plexus_coll_dtype_t *type, int root, plexus_coll_comm_t *comm) {
    return run(comm, PLEXUS_COLL_BCAST, [&](plexus_coll_module_t *m) { return m->fn.bcast(m, buf, count, type, root, comm); });
}

int reduce(plexus_coll_module_t *, const void *sendbuf, void *recvbuf, int count, plexus_coll_dtype_t *type,
           plexus_coll_op_t *op, int root, plexus_coll_comm_t *comm) {
    return run(comm, PLEXUS_COLL_REDUCE,
               [&](plexus_coll_module_t *m) { return m->fn.reduce(m, sendbuf, recvbuf, count, type, op, root, comm); });
}

int allreduce(plexus_coll_module_t *, const void *sendbuf, void *recvbuf, int count, plexus_coll_dtype_t *type,
              plexus_coll_op_t *op, plexus_coll_comm_t *comm) {
    return run(comm, PLEXUS_COLL_ALLREDUCE,
               [&](plexus_coll_module_t *m) { return m->fn.allreduce(m, sendbuf, recvbuf, count, type, op, comm); });
}

int gather(plexus_coll_module_t *, const void *sendbuf, int sendcount, plexus_coll_dtype_t *sendtype, void *recvbuf,
           int recvcount, plexus_coll_dtype_t *recvtype, int root, plexus_coll_comm_t *comm) {
    return run(comm, PLEXUS_COLL_GATHER, [&](plexus_coll_module_t *m) {
        return m->fn.gather(m, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm);
    });
}

int gatherv(plexus_coll_module_t *, const void *sendbuf, int sendcount, plexus_coll_dtype_t *sendtype, void *recvbuf,
            const int recvcounts[], const int displs[], plexus_coll_dtype_t *recvtype, int root,
            plexus_coll_comm_t *comm) {
    return run(comm, PLEXUS_COLL_GATHERV, [&](plexus_coll_module_t *m) {
        return m->fn.gatherv(m, sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root, comm);
    });
}

int scatter(plexus_coll_module_t *, const void *sendbuf, int sendcount, plexus_coll_dtype_t *sendtype, void *recvbuf,
            int recvcount, plexus_coll_dtype_t *recvtype, int root, plexus_coll_comm_t *comm) {
    return run(comm, PLEXUS_COLL_SCATTER, [&](plexus_coll_module_t *m) {
        return m->fn.scatter(m, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm);
    });
}

int scatterv(plexus_coll_module_t *, const void *sendbuf, const int sendcounts[], const int displs[],
             plexus_coll_dtype_t *sendtype, void *recvbuf, int recvcount, plexus_coll_dtype_t *recvtype, int root,
             plexus_coll_comm_t *comm) {
    return run(comm, PLEXUS_COLL_SCATTERV, [&](plexus_coll_module_t *m) {
        return m->fn.scatterv(m, sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root, comm);
    });
}

int allgather(plexus_coll_module_t *, const void *sendbuf, int sendcount, plexus_coll_dtype_t *sendtype,
              void *recvbuf, int recvcount, plexus_coll_dtype_t *recvtype, plexus_coll_comm_t *comm) {
    return run(comm, PLEXUS_COLL_ALLGATHER, [&](plexus_coll_module_t *m) {
        return m->fn.allgather(m, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
    });
}

int allgatherv(plexus_coll_module_t *, const void *sendbuf, int sendcount, plexus_coll_dtype_t *sendtype,
               void *recvbuf, const int recvcounts[], const int displs[], plexus_coll_dtype_t *recvtype,
               plexus_coll_comm_t *comm) {
    return run(comm, PLEXUS_COLL_ALLGATHERV, [&](plexus_coll_module_t *m) {
        return m->fn.allgatherv(m, sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm);
    });
}

int alltoall(plexus_coll_module_t *, const void *sendbuf, int sendcount, plexus_coll_dtype_t *sendtype, void *recvbuf,
             int recvcount, plexus_coll_dtype_t *recvtype, plexus_coll_comm_t *comm) {
    return run(comm, PLEXUS_COLL_ALLTOALL, [&](plexus_coll_module_t *m) {
        return m->fn.alltoall(m, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
    });
}

int alltoallv(plexus_coll_module_t *, const void *sendbuf, const int sendcounts[], const int sdispls[],
              plexus_coll_dtype_t *sendtype, void *recvbuf, const int recvcounts[], const int rdispls[],
              plexus_coll_dtype_t *recvtype, plexus_coll_comm_t *comm) {
    return run(comm, PLEXUS_COLL_ALLTOALLV, [&](plexus_coll_module_t *m) {
        return m->fn.alltoallv(m, sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm);
    });
}

int alltoallw(plexus_coll_module_t *, const void *sendbuf, const int sendcounts[], const int sdispls[],
              plexus_coll_dtype_t *const sendtypes[], void *recvbuf, const int recvcounts[], const int rdispls[],
              plexus_coll_dtype_t *const recvtypes[], plexus_coll_comm_t *comm) {
    return run(comm, PLEXUS_COLL_ALLTOALLW, [&](plexus_coll_module_t *m) {
        return m->fn.alltoallw(m, sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes,
                               comm);
    });
}

int reduce_scatter(plexus_coll_module_t *, const void *sendbuf, void *recvbuf, const int recvcounts[],
                   plexus_coll_dtype_t *type, plexus_coll_op_t *op, plexus_coll_comm_t *comm) {
    return run(comm, PLEXUS_COLL_REDUCE_SCATTER, [&](plexus_coll_module_t *m) {
        return m->fn.reduce_scatter(m, sendbuf, recvbuf, recvcounts, type, op, comm);
    });
}

int reduce_scatter_block(plexus_coll_module_t *, const void *sendbuf, void *recvbuf, int recvcount,
                         plexus_coll_dtype_t *type, plexus_coll_op_t *op, plexus_coll_comm_t *comm) {
    return run(comm, PLEXUS_COLL_REDUCE_SCATTER_BLOCK, [&](plexus_coll_module_t *m) {
        return m->fn.reduce_scatter_block(m, sendbuf, recvbuf, recvcount, type, op, comm);
    });
}

int scan(plexus_coll_module_t *, const void *sendbuf, void *recvbuf, int count, plexus_coll_dtype_t *type,
         plexus_coll_op_t *op, plexus_coll_comm_t *comm) {
    return run(comm, PLEXUS_COLL_SCAN,
               [&](plexus_coll_module_t *m) { return m->fn.scan(m, sendbuf, recvbuf, count, type, op, comm); });
}

int exscan(plexus_coll_module_t *, const void *sendbuf, void *recvbuf, int count, plexus_coll_dtype_t *type,
           plexus_coll_op_t *op, plexus_coll_comm_t *comm) {
    return run(comm, PLEXUS_COLL_EXSCAN,
               [&](plexus_coll_module_t *m) { return m->fn.exscan(m, sendbuf, recvbuf, count, type, op, comm); });
}

}  // namespace dispatch

const plexus_coll_functions_t &dispatch_table() {
    static const plexus_coll_functions_t table = {
        dispatch::barrier,   dispatch::bcast,     dispatch::reduce,         dispatch::allreduce,
        dispatch::gather,    dispatch::gatherv,   dispatch::scatter,        dispatch::scatterv,
        dispatch::allgather, dispatch::allgatherv, dispatch::alltoall,      dispatch::alltoallv,
        dispatch::alltoallw, dispatch::reduce_scatter, dispatch::reduce_scatter_block, dispatch::scan,
        dispatch::exscan};
    return table;
}

}  // namespace plexus::mpi::coll
