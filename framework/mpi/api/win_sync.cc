// One-sided synchronisation (MPI-2.2 11.4): MPI_Win_fence, MPI_Win_start / complete /
// post / wait / test, MPI_Win_lock / unlock. The MPI layer checks the window, the assert bits
// each call may take, groups, ranks and lock types; which epoch a call may come in is the
// module's to judge (MPI_ERR_RMA_SYNC through services.set_error). The epochs that the module's
// successful calls open and close are noted on the window (Win::epochs), for MPI_Win_free.
#include <vector>

#include "mpi/api/profiling.h"
#include "mpi/mpi_state.h"
#include "mpi/osc/win_checks.h"
#include "mpi/osc/win_error.h"

using namespace plexus::mpi;

namespace {

// MPI-2.2 11.4.4: the asserts each call takes.
constexpr int kFenceAsserts = MPI_MODE_NOSTORE | MPI_MODE_NOPUT | MPI_MODE_NOPRECEDE | MPI_MODE_NOSUCCEED;
constexpr int kPostAsserts = MPI_MODE_NOCHECK | MPI_MODE_NOSTORE | MPI_MODE_NOPUT;
constexpr int kStartAsserts = MPI_MODE_NOCHECK;
constexpr int kLockAsserts = MPI_MODE_NOCHECK;

// start and post: the group as window ranks, then the module.
using GroupCall = int (*)(plexus_osc_module_t *, int, const int[], int);
int group_epoch(const char *fn, Group *group, int assert_bits, Win *win, int allowed, GroupCall call,
                const char *member) {
    running(fn);
    if (int rc = osc::check_win(fn, win)) return rc;
    if (int rc = osc::check_assert(fn, win, assert_bits, allowed)) return rc;
    std::vector<int> ranks;
    if (int rc = osc::group_ranks(fn, win, group, &ranks)) return rc;
    if (!call) return report_unsupported(win, fn, member);
    return module_result(win, call(win->module, static_cast<int>(ranks.size()), ranks.data(), assert_bits), fn,
                         member);
}

// What a successful call did to the epochs: opened one (true) or closed it.
int noted(int rc, bool *epoch, bool open) {
    if (rc == MPI_SUCCESS) *epoch = open;
    return rc;
}

// complete and wait: the window alone.
int end_epoch(const char *fn, Win *win, int (*plexus_osc_module_t::*member)(plexus_osc_module_t *), const char *name) {
    running(fn);
    if (int rc = osc::check_win(fn, win)) return rc;
    auto call = win->module->*member;
    if (!call) return report_unsupported(win, fn, name);
    return module_result(win, call(win->module), fn, name);
}

}  // namespace

extern "C" {

PLEXUS_MPI_ALIAS(Win_fence)
int PMPI_Win_fence(int assert, MPI_Win win) {
    constexpr const char *fn = "MPI_Win_fence";
    running(fn);
    if (int rc = osc::check_win(fn, win)) return rc;
    if (int rc = osc::check_assert(fn, win, assert, kFenceAsserts)) return rc;
    plexus_osc_module_t *m = win->module;
    if (!m->fence) return report_unsupported(win, fn, "fence");
    return module_result(win, m->fence(m, assert), fn, "fence");
}

PLEXUS_MPI_ALIAS(Win_start)
int PMPI_Win_start(MPI_Group group, int assert, MPI_Win win) {
    const int rc = group_epoch("MPI_Win_start", group, assert, win, kStartAsserts,
                               win_valid(win) ? win->module->start : nullptr, "start");
    return rc == MPI_SUCCESS ? noted(rc, &win->epochs.access, true) : rc;
}

PLEXUS_MPI_ALIAS(Win_complete)
int PMPI_Win_complete(MPI_Win win) {
    const int rc = end_epoch("MPI_Win_complete", win, &plexus_osc_module_t::complete, "complete");
    return rc == MPI_SUCCESS ? noted(rc, &win->epochs.access, false) : rc;
}

PLEXUS_MPI_ALIAS(Win_post)
int PMPI_Win_post(MPI_Group group, int assert, MPI_Win win) {
    const int rc = group_epoch("MPI_Win_post", group, assert, win, kPostAsserts,
                               win_valid(win) ? win->module->post : nullptr, "post");
    return rc == MPI_SUCCESS ? noted(rc, &win->epochs.exposure, true) : rc;
}

PLEXUS_MPI_ALIAS(Win_wait)
int PMPI_Win_wait(MPI_Win win) {
    const int rc = end_epoch("MPI_Win_wait", win, &plexus_osc_module_t::wait, "wait");
    return rc == MPI_SUCCESS ? noted(rc, &win->epochs.exposure, false) : rc;
}

PLEXUS_MPI_ALIAS(Win_test)
int PMPI_Win_test(MPI_Win win, int *flag) {
    constexpr const char *fn = "MPI_Win_test";
    running(fn);
    if (int rc = osc::check_win(fn, win)) return rc;
    if (!flag) return report_win_errorf(win, MPI_ERR_ARG, "%s: flag is NULL", fn);
    plexus_osc_module_t *m = win->module;
    if (!m->test) return report_unsupported(win, fn, "test");
    *flag = 0;
    const int rc = module_result(win, m->test(m, flag), fn, "test");
    return rc == MPI_SUCCESS && *flag ? noted(rc, &win->epochs.exposure, false) : rc;
}

PLEXUS_MPI_ALIAS(Win_lock)
int PMPI_Win_lock(int lock_type, int rank, int assert, MPI_Win win) {
    constexpr const char *fn = "MPI_Win_lock";
    running(fn);
    if (int rc = osc::check_win(fn, win)) return rc;
    if (int rc = osc::check_lock_type(fn, win, lock_type)) return rc;
    if (int rc = osc::check_lock_rank(fn, win, rank)) return rc;
    if (int rc = osc::check_assert(fn, win, assert, kLockAsserts)) return rc;
    plexus_osc_module_t *m = win->module;
    if (!m->lock) return report_unsupported(win, fn, "lock");
    const int rc = module_result(win, m->lock(m, lock_type, rank, assert), fn, "lock");
    if (rc == MPI_SUCCESS) ++win->epochs.locks;
    return rc;
}

PLEXUS_MPI_ALIAS(Win_unlock)
int PMPI_Win_unlock(int rank, MPI_Win win) {
    constexpr const char *fn = "MPI_Win_unlock";
    running(fn);
    if (int rc = osc::check_win(fn, win)) return rc;
    if (int rc = osc::check_lock_rank(fn, win, rank)) return rc;
    plexus_osc_module_t *m = win->module;
    if (!m->unlock) return report_unsupported(win, fn, "unlock");
    const int rc = module_result(win, m->unlock(m, rank), fn, "unlock");
    if (rc == MPI_SUCCESS && win->epochs.locks > 0) --win->epochs.locks;
    return rc;
}

}  // extern "C"
