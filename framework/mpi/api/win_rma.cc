// The communication calls of one-sided (MPI-2.2 11.3): MPI_Put, MPI_Get, MPI_Accumulate.
// Everything a process can check alone is checked here (osc/win_checks.h); a target of
// MPI_PROC_NULL then completes at once; the rest (epochs, displacements against the target's
// window) is the module's, which reports it through services.set_error.
#include "mpi/api/profiling.h"
#include "mpi/coll/coll_handles.h"
#include "mpi/mpi_state.h"
#include "mpi/osc/win_checks.h"
#include "mpi/osc/win_error.h"

using namespace plexus::mpi;
using coll::handle;

namespace {

// The checks shared by the three calls.
int check_rma(const char *fn, const Win *win, const void *origin, int origin_count, const Datatype *origin_type,
              int rank, MPI_Aint disp, int target_count, const Datatype *target_type) {
    if (int rc = osc::check_win(fn, win)) return rc;
    if (int rc = osc::check_side(fn, win, origin, origin_count, origin_type, "origin")) return rc;
    return osc::check_target(fn, win, origin_count, origin_type, rank, disp, target_count, target_type);
}

}  // namespace

extern "C" {

PLEXUS_MPI_ALIAS(Put)
int PMPI_Put(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
             MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Win win) {
    constexpr const char *fn = "MPI_Put";
    running(fn);
    if (int rc = check_rma(fn, win, origin_addr, origin_count, origin_datatype, target_rank, target_disp, target_count,
                           target_datatype))
        return rc;
    if (target_rank == MPI_PROC_NULL) return MPI_SUCCESS;
    plexus_osc_module_t *m = win->module;
    if (!m->put) return report_unsupported(win, fn, "put");
    return module_result(win,
                         m->put(m, origin_addr, origin_count, handle(origin_datatype), target_rank, target_disp,
                                target_count, handle(target_datatype)),
                         fn, "the put failed");
}

PLEXUS_MPI_ALIAS(Get)
int PMPI_Get(void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp,
             int target_count, MPI_Datatype target_datatype, MPI_Win win) {
    constexpr const char *fn = "MPI_Get";
    running(fn);
    if (int rc = check_rma(fn, win, origin_addr, origin_count, origin_datatype, target_rank, target_disp, target_count,
                           target_datatype))
        return rc;
    if (target_rank == MPI_PROC_NULL) return MPI_SUCCESS;
    plexus_osc_module_t *m = win->module;
    if (!m->get) return report_unsupported(win, fn, "get");
    return module_result(win,
                         m->get(m, origin_addr, origin_count, handle(origin_datatype), target_rank, target_disp,
                                target_count, handle(target_datatype)),
                         fn, "the get failed");
}

PLEXUS_MPI_ALIAS(Accumulate)
int PMPI_Accumulate(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
                    MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Op op, MPI_Win win) {
    constexpr const char *fn = "MPI_Accumulate";
    running(fn);
    if (int rc = check_rma(fn, win, origin_addr, origin_count, origin_datatype, target_rank, target_disp, target_count,
                           target_datatype))
        return rc;
    if (int rc = osc::check_accumulate_op(fn, win, op, origin_datatype, target_datatype)) return rc;
    if (target_rank == MPI_PROC_NULL) return MPI_SUCCESS;
    plexus_osc_module_t *m = win->module;
    if (!m->accumulate) return report_unsupported(win, fn, "accumulate");
    return module_result(win,
                         m->accumulate(m, origin_addr, origin_count, handle(origin_datatype), target_rank, target_disp,
                                       target_count, handle(target_datatype), handle(op)),
                         fn, "the accumulate failed");
}

}  // extern "C"
