// Disconnect: bounded waits, the module's part, the free, the endpoints.
#include "mpi/dpm/dpm_disconnect.h"

#include <algorithm>
#include <chrono>
#include <set>
#include <vector>

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

namespace plexus::mpi::dpm {
namespace {

// Processes of other jobs that comm reaches and no other live communicator does.
std::vector<uint32_t> procs_only_here(const Comm *comm) {
    const size_t world = g_mpi->procs().world_size();
    std::set<uint32_t> mine;
    for (uint32_t p : comm->remote_procs)
        if (p >= world) mine.insert(p);
    for (uint32_t p : comm->local_procs)
        if (p >= world) mine.insert(p);
    comm_registry().for_each([&](const Comm *other) {
        if (other == comm || other == comm->local_comm) return;
        for (uint32_t p : other->local_procs) mine.erase(p);
        for (uint32_t p : other->remote_procs) mine.erase(p);
    });
    for (const Comm *pre : {static_cast<const Comm *>(MPI_COMM_WORLD), static_cast<const Comm *>(MPI_COMM_SELF)})
        for (uint32_t p : pre->local_procs) mine.erase(p);
    return {mine.begin(), mine.end()};
}

}  // namespace

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
    const std::vector<uint32_t> gone = procs_only_here(c);
    forget(c);
    if (int frc = comm_free(handle)) return frc;
    // 4. The endpoints of processes nobody reaches any more (the freed object may wait for
    // requests, which step 1 ruled out).
    if (!gone.empty()) {
        pml.bml().del_procs(gone);
        for (uint32_t p : gone) pml.forget_peer(p);
    }
    return MPI_SUCCESS;
}

}  // namespace plexus::mpi::dpm
