// Disconnect: bounded waits, the module's part, the job manager's part, the free, the endpoints;
// and the local release of an inter-communicator whose meeting failed after it was built.
#include "mpi/dpm/dpm_disconnect.h"

#include <algorithm>
#include <chrono>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "base/output.h"
#include "mpi/bml/bml.h"
#include "mpi/coll/coll_handles.h"
#include "mpi/comm/agreement_channels.h"
#include "mpi/comm/comm_build.h"
#include "mpi/comm/comm_registry.h"
#include "mpi/dpm/dpm.h"
#include "mpi/dpm/dpm_api.h"
#include "mpi/dpm/dpm_services.h"
#include "mpi/error_codes.h"
#include "mpi/error_report.h"
#include "mpi/mpi_state.h"
#include "runtime/runtime.h"

namespace plexus::mpi::dpm {
namespace {

// Processes of other jobs that comm reaches and no other live communicator does.
std::vector<uint32_t> procs_only_here(const Comm *comm) {
    std::vector<uint32_t> ids(comm->remote_procs);
    ids.insert(ids.end(), comm->local_procs.begin(), comm->local_procs.end());
    return unreached_except(ids, comm);
}

// Every process of comm, each once, when some are of another job; empty otherwise.
std::vector<runtime::ProcId> members_across_jobs(const Comm *comm) {
    const ProcTable &procs = g_mpi->procs();
    std::vector<runtime::ProcId> out;
    bool across = false;
    auto add = [&](const std::vector<uint32_t> &ids) {
        for (uint32_t p : ids) {
            across = across || p >= procs.world_size();
            out.push_back(procs.at(p));
        }
    };
    add(comm->local_procs);
    if (comm->inter) add(comm->remote_procs);  // an intra-communicator's are its local ones
    if (!across) out.clear();
    return out;
}

// The job manager's client library keeps what it learnt of another job (libpmix 4.2.2: three
// hash tables, about 52 KB, per namespace, for the process's life) until a disconnect names its
// processes (docs/dynamic-processes.md). That is one more collective of both groups, through the
// job manager; the groups' own synchronisation has brought every member here already, so it waits
// for nobody late. Its failure is no failure of MPI_Comm_disconnect (a job manager without it only
// keeps the memory): said at dpm_base_verbose, or as a warning when it ran into the timeout.
void release_other_jobs(const Comm *comm, int timeout_ms) {
    runtime::Runtime *rt = runtime::Runtime::current();
    const std::vector<runtime::ProcId> members = members_across_jobs(comm);
    if (!rt || members.empty()) return;
    auto op = std::make_shared<runtime::PendingOp>();
    runtime::Status s = rt->disconnect_start(members, timeout_ms, op);
    if (s && g_mpi->pml().engine().wait_until([&] { return op->done(); }, std::chrono::milliseconds(timeout_ms)))
        s = runtime::Status::error(PLEXUS_ERR_TIMEOUT, "waited " + std::to_string(timeout_ms) +
                                                           " ms (dpm_base_connect_timeout) for the job manager's "
                                                           "disconnect of " + std::to_string(members.size()) +
                                                           " processes");
    else if (s)
        s = op->result();
    if (!s)
        mca::emit(s.code == PLEXUS_ERR_TIMEOUT ? PLEXUS_LOG_WARN : PLEXUS_LOG_DECISION, "dpm",
                  "MPI_Comm_disconnect of " + comm_name(comm) +
                      ": the job manager keeps what it knows of the other job: " + s.message);
}

}  // namespace

std::vector<uint32_t> unreached_except(const std::vector<uint32_t> &ids, const Comm *comm) {
    const size_t world = g_mpi->procs().world_size();
    std::set<uint32_t> mine;
    for (uint32_t p : ids)
        if (p >= world) mine.insert(p);
    comm_registry().for_each([&](const Comm *other) {
        if (other == comm || (comm && other == comm->local_comm)) return;
        for (uint32_t p : other->local_procs) mine.erase(p);
        for (uint32_t p : other->remote_procs) mine.erase(p);
    });
    for (const Comm *pre : {static_cast<const Comm *>(MPI_COMM_WORLD), static_cast<const Comm *>(MPI_COMM_SELF)})
        for (uint32_t p : pre->local_procs) mine.erase(p);
    return {mine.begin(), mine.end()};
}

void drop_endpoints(const std::vector<uint32_t> &gone) {
    if (gone.empty()) return;
    Pml &pml = g_mpi->pml();
    pml.bml().del_procs(gone);
    for (uint32_t p : gone) pml.forget_peer(p);
    // Their business cards served add_procs alone (btl.h: a BTL keeps no pointer into a card):
    // with no communicator reaching them, the runtime's copies go too (host API modex_get), and
    // so do the secrets shared with them (a later meeting agrees a new one).
    if (runtime::Runtime *rt = runtime::Runtime::current())
        for (uint32_t p : gone) {
            rt->modex().forget(g_mpi->procs().at(p));
            rt->peer_secrets().forget(g_mpi->procs().at(p));
        }
    // Their ids may name later newcomers once nothing holds them (dpm_intercomm.cc).
    g_mpi->procs().depart(gone);
}

void discard(plexus_coll_comm_t *built) {
    Comm *c = built ? coll::object(built) : nullptr;
    if (!c) return;
    const std::vector<uint32_t> gone = procs_only_here(c);
    forget(c);
    (void)comm_free(&c);  // local: nothing was sent on it; an attribute's delete callback cannot stop it
    drop_endpoints(gone);
}

int disconnect(const char *function, Comm **handle) {
    Comm *c = *handle;
    // The other group may come much later (dpm_api.h): wait without waking 10,000 times a second.
    LongWaits long_waits;
    const int timeout = connect_timeout_ms();
    Pml &pml = g_mpi->pml();
    // 1. MPI-2.2 10.5.4: pending communication on comm completes first (the program posted
    // what matches it; a wait here that never ends is its bug, reported at the timeout).
    auto idle = [&] { return !g_mpi->requests.refers_to(c); };
    if (pml.engine().wait_until(idle, std::chrono::milliseconds(timeout)) != PLEXUS_SUCCESS)
        return report_errorf(c, MPI_ERR_OTHER,
                             "%s: waited %d ms (dpm_base_connect_timeout) for the pending requests on %s to "
                             "complete; the communicator was not disconnected",
                             function, timeout, comm_name(c).c_str());
    // 2. Both groups are here: after this nobody sends on comm any more.
    uint64_t token = 0;
    int rc = c->inter ? BridgedChannel(c).allreduce(&token, 1, ReduceOp::Max)
                      : IntraChannel(c).allreduce(&token, 1, ReduceOp::Max);
    if (rc) return report_errorf(c, rc, "%s: synchronising the groups of %s failed", function, comm_name(c).c_str());
    // 3. Our sends to them are delivered (acknowledgements, rendezvous) before the endpoints go.
    pml.engine().wait_until([&] { return g_mpi->pml().bml().pending() == 0; }, std::chrono::milliseconds(timeout));
    std::string why;
    if (plexus_dpm_module_t *m = module(&why); m && m->disconnect)
        if (int mrc = m->disconnect(m, coll::handle(c)))
            return report_errorf(c, mrc, "%s: the dpm component could not disconnect %s: %s", function,
                                 comm_name(c).c_str(), take_error().c_str());
    // 4. What the job manager's client knows of the other jobs goes too.
    release_other_jobs(c, timeout);
    const std::vector<uint32_t> gone = procs_only_here(c);
    forget(c);
    if (int frc = comm_free(handle)) return frc;
    // 5. The endpoints of processes nobody reaches any more (the freed object may wait for
    // requests, which step 1 ruled out).
    drop_endpoints(gone);
    return MPI_SUCCESS;
}

}  // namespace plexus::mpi::dpm
