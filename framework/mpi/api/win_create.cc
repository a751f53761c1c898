// Windows (MPI-2.2 11.2): MPI_Win_create, MPI_Win_free, MPI_Win_get_group and the Fortran
// handle conversions. Creation selects the osc component that serves the window
// (osc/osc_select.h); the arguments are checked here first, errors reported on comm.
#include "mpi/api/profiling.h"
#include "mpi/arg_check.h"
#include "mpi/comm/comm_checks.h"
#include "mpi/mpi_state.h"
#include "mpi/osc/osc_select.h"
#include "mpi/osc/win_checks.h"
#include "mpi/osc/win_error.h"
#include "mpi/osc/win_handles.h"

using namespace plexus::mpi;

namespace {

int check_create(const char *fn, const void *base, MPI_Aint size, int disp_unit, const Info *info, const Comm *comm,
                 const MPI_Win *win) {
    if (int rc = check_intra(fn, comm, "comm")) return rc;
    if (size < 0) return report_errorf(comm, MPI_ERR_SIZE, "%s: invalid size %td: must be >= 0", fn, size);
    if (disp_unit <= 0)
        return report_errorf(comm, MPI_ERR_DISP, "%s: invalid disp_unit %d: must be > 0", fn, disp_unit);
    if (!base && size > 0)
        return report_errorf(comm, MPI_ERR_BASE, "%s: invalid base: NULL for a window of %td bytes", fn, size);
    if (info != MPI_INFO_NULL && !info_valid(info))
        return report_errorf(comm, MPI_ERR_INFO, "%s: invalid info: not an info object (freed, or never made by MPI)",
                             fn);
    return check_pointer(fn, comm, win, "win");
}

}  // namespace

extern "C" {

PLEXUS_MPI_ALIAS(Win_create)
int PMPI_Win_create(void *base, MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm, MPI_Win *win) {
    constexpr const char *fn = "MPI_Win_create";
    running(fn);
    if (int rc = check_create(fn, base, size, disp_unit, info, comm, win)) return rc;
    return osc::win_create(fn, base, size, disp_unit, info, comm, win);
}

PLEXUS_MPI_ALIAS(Win_free)
int PMPI_Win_free(MPI_Win *win) {
    constexpr const char *fn = "MPI_Win_free";
    running(fn);
    if (int rc = check_pointer(fn, MPI_COMM_WORLD, win, "win")) return rc;
    if (int rc = osc::check_win(fn, *win)) return rc;
    return osc::win_free(fn, win);
}

PLEXUS_MPI_ALIAS(Win_get_group)
int PMPI_Win_get_group(MPI_Win win, MPI_Group *group) {
    constexpr const char *fn = "MPI_Win_get_group";
    running(fn);
    if (int rc = osc::check_win(fn, win)) return rc;
    if (!group) return report_win_errorf(win, MPI_ERR_ARG, "%s: group is NULL", fn);
    *group = osc::win_group(win);
    return MPI_SUCCESS;
}

// Handle conversions report nothing (MPI gives them no error path): an invalid handle maps to 0
// and an unknown number to MPI_WIN_NULL.
PLEXUS_MPI_ALIAS(Win_c2f)
MPI_Fint PMPI_Win_c2f(MPI_Win win) {
    running("MPI_Win_c2f");
    return win_valid(win) ? win->fortran : 0;
}

PLEXUS_MPI_ALIAS(Win_f2c)
MPI_Win PMPI_Win_f2c(MPI_Fint win) {
    running("MPI_Win_f2c");
    return win_of_fortran(win);
}

}  // extern "C"
