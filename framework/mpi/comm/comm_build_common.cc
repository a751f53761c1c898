// Shared steps of communicator construction.
#include "mpi/comm/comm_build_common.h"

#include "mpi/errhandler.h"
#include "mpi/error_codes.h"
#include "mpi/error_report.h"

namespace plexus::mpi::build {

void reap() { comm_registry().reap(&g_mpi->pml(), g_mpi->requests); }

int step_failed(const char *function, const Comm *comm, const char *step, int rc) {
    const char *text = class_text(rc) ? class_text(rc) : "unknown error";
    return report_errorf(comm, rc, "%s: %s over %s failed: %s", function, step, comm_name(comm).c_str(), text);
}

int agree(const char *function, const Comm *parent, AgreementChannel &channel, size_t count, std::vector<uint32_t> *ids) {
    if (int rc = agree_context_ids(comm_registry().ids, channel, count, ids))
        return step_failed(function, parent, "agreeing on a context id", rc);
    return MPI_SUCCESS;
}

namespace {

Comm *new_comm(uint32_t id, ProcList local, int rank) {
    Comm *c = comm_registry().create(id);
    c->local_procs = std::move(local);
    c->rank = rank;
    return c;
}

void inherit_errhandler(Comm *c, const Comm *parent) {
    c->errhandler = parent->errhandler;
    errhandler_retain(c->errhandler);
}

}  // namespace

Comm *make_intra(uint32_t id, ProcList procs, int rank, const Comm *parent) {
    Comm *c = new_comm(id, std::move(procs), rank);
    c->remote_procs = c->local_procs;
    inherit_errhandler(c, parent);
    return c;
}

Comm *make_inter(uint32_t id, uint32_t local_id, ProcList local, ProcList remote, int rank, const Comm *parent) {
    Comm *local_comm = new_comm(local_id, local, rank);
    local_comm->remote_procs = local_comm->local_procs;
    local_comm->errhandler = MPI_ERRORS_RETURN;  // the library's own use: errors come back as codes
    local_comm->name = "local group of an inter-communicator";
    Comm *c = new_comm(id, std::move(local), rank);
    c->remote_procs = std::move(remote);
    c->inter = true;
    c->local_comm = local_comm;
    inherit_errhandler(c, parent);
    return c;
}

void publish(Comm *c, Comm **out) {
    comm_registry().activate(g_mpi->pml(), c);
    *out = c;
}

void give_back(const std::vector<uint32_t> &ids) {
    for (uint32_t id : ids) comm_registry().unused_id(id);
}

ProcList procs_at(const ProcList &list, const std::vector<int> &ranks) {
    ProcList out;
    out.reserve(ranks.size());
    for (int r : ranks) out.push_back(list[static_cast<size_t>(r)]);
    return out;
}

}  // namespace plexus::mpi::build
