// What the dynamic-process calls (api/dpm_*.cc) share: the module or the reported reason why
// there is none, the report of a module's error with the message it left, the root's verdict on
// the arguments only it uses spread to its group (so that nobody waits for a root that refused),
// and info objects as key/value arrays for the module.
#pragma once

#include <string>
#include <vector>

#include <plexus/dpm.h>

#include "mpi/communicator.h"
#include "mpi/info/info.h"
#include "runtime/backoff.h"

namespace plexus::mpi::dpm {

// The module; nullptr after reporting MPI_ERR_UNSUPPORTED_OPERATION on comm (*rc set).
plexus_dpm_module_t *module_or_report(const char *function, const Comm *comm, int *rc);

// rc from a module call: MPI_SUCCESS, or the error reported on comm with the module's message
// (or, when it left none, `what` and the class's text).
int module_result(const char *function, const Comm *comm, int rc, const char *what);

// rc and the inter-communicator a module's spawn, accept, connect or join left in out: on success
// *newcomm gets it; on failure *newcomm is MPI_COMM_NULL and one the module built all the same
// (its meeting failed after this process built: another process of the group, or the other
// side, failed) is discarded here, then the error is reported as module_result does.
int meeting_result(const char *function, const Comm *comm, int rc, plexus_coll_comm_t *out, MPI_Comm *newcomm,
                   const char *what);

// Collective over comm: the root's check result (root_rc, already reported there) reaches every
// process; the others report that the root refused. MPI_SUCCESS when the root accepted.
int root_verdict(const char *function, Comm *comm, int root, int root_rc);

// MPI_ERR_INFO unless info is MPI_INFO_NULL or a live info object.
int check_info(const char *function, const Comm *comm, const Info *info, const char *name);

// While a dynamic-process call runs, a wait that has found nothing to do for kLongWaitAfterUs
// (20 ms of sleeps) sleeps up to kLongWaitSleepUs instead of the progress engine's usual 100 us cap:
// these calls wait for another job (a child's exec and MPI_Init, a late peer's disconnect, a
// connector that comes in minutes) while the processes waiting (every non-root of the group, both
// groups in a disconnect) would otherwise wake 10,000 times a second each, taking the CPU from the
// processes that do the work on a node with few cores (a disconnect waiting for its peer cost
// another pair's ping-pong 450-800 us). Waits shorter than that, the steps of an exchange once
// the other side is there, keep the usual cap: with the long cap from the start, each step of a
// 2 + 2 meeting was noticed up to 2 ms late. A policy that spins (runtime_progress_* chosen so)
// and a larger cap the user set are kept. Restored on leaving.
class LongWaits {
public:
    static constexpr uint32_t kLongWaitSleepUs = 2000;
    static constexpr uint32_t kLongWaitAfterUs = 20000;
    LongWaits();
    ~LongWaits();
    LongWaits(const LongWaits &) = delete;
    LongWaits &operator=(const LongWaits &) = delete;

private:
    runtime::BackoffPolicy saved_;
    bool changed_ = false;
};

// An info's keys and values, kept alive for a module call.
struct InfoArrays {
    std::vector<std::string> keys, values;
    std::vector<const char *> key_ptrs, value_ptrs;
    void fill(const Info *info);
};

}  // namespace plexus::mpi::dpm
