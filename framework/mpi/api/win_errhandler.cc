// Error handlers of windows (MPI-2.2 8.3.2): MPI_Win_create_errhandler, MPI_Win_set_errhandler,
// MPI_Win_get_errhandler, MPI_Win_call_errhandler. A window starts with MPI_ERRORS_ARE_FATAL;
// a handler made for communicators cannot be set on a window (MPI_ERR_ARG), nor the reverse
// (api/errors.cc). Handles are freed by MPI_Errhandler_free, as every handler's.
#include "mpi/api/profiling.h"
#include "mpi/arg_check.h"
#include "mpi/errhandler.h"
#include "mpi/error_codes.h"
#include "mpi/mpi_state.h"
#include "mpi/osc/win_checks.h"
#include "mpi/osc/win_error.h"

using namespace plexus::mpi;

extern "C" {

PLEXUS_MPI_ALIAS(Win_create_errhandler)
int PMPI_Win_create_errhandler(MPI_Win_errhandler_function *function, MPI_Errhandler *errhandler) {
    constexpr const char *fn = "MPI_Win_create_errhandler";
    running(fn);
    if (!function) return report_errorf(MPI_COMM_WORLD, MPI_ERR_ARG, "%s: invalid function: NULL", fn);
    if (int rc = check_pointer(fn, MPI_COMM_WORLD, errhandler, "errhandler")) return rc;
    // Stored as the communicator form and called through its own type (osc/win_error.cc).
    *errhandler = new Errhandler{.action = ErrorAction::Call,
                                 .predefined = false,
                                 .references = 1,  // the handle
                                 .name = "user window error handler",
                                 .function = reinterpret_cast<MPI_Comm_errhandler_function *>(function),
                                 .handles = 1,
                                 .for_win = true};
    return MPI_SUCCESS;
}

PLEXUS_MPI_ALIAS(Win_set_errhandler)
int PMPI_Win_set_errhandler(MPI_Win win, MPI_Errhandler errhandler) {
    constexpr const char *fn = "MPI_Win_set_errhandler";
    running(fn);
    if (int rc = osc::check_win(fn, win)) return rc;
    if (!errhandler_valid(errhandler))
        return report_win_errorf(win, MPI_ERR_ARG, "%s: invalid errhandler: %s", fn,
                                 errhandler ? "not an error handler (freed, or never made by MPI)"
                                            : "MPI_ERRHANDLER_NULL");
    if (!errhandler->predefined && !errhandler->for_win)
        return report_win_errorf(win, MPI_ERR_ARG,
                                 "%s: errhandler was made by MPI_Comm_create_errhandler; windows take handlers of "
                                 "MPI_Win_create_errhandler (or the predefined ones)",
                                 fn);
    // Retain first: setting the handler a window already has must not delete it.
    errhandler_retain(errhandler);
    errhandler_release(win->errhandler);
    win->errhandler = errhandler;
    return MPI_SUCCESS;
}

PLEXUS_MPI_ALIAS(Win_get_errhandler)
int PMPI_Win_get_errhandler(MPI_Win win, MPI_Errhandler *errhandler) {
    constexpr const char *fn = "MPI_Win_get_errhandler";
    running(fn);
    if (int rc = osc::check_win(fn, win)) return rc;
    if (!errhandler) return report_win_errorf(win, MPI_ERR_ARG, "%s: errhandler is NULL", fn);
    Errhandler *e = win->errhandler;
    errhandler_retain(e);  // a new handle: the caller may MPI_Errhandler_free it
    ++e->handles;
    *errhandler = e;
    return MPI_SUCCESS;
}

PLEXUS_MPI_ALIAS(Win_call_errhandler)
int PMPI_Win_call_errhandler(MPI_Win win, int errorcode) {
    constexpr const char *fn = "MPI_Win_call_errhandler";
    running(fn);
    if (int rc = osc::check_win(fn, win)) return rc;
    if (error_class_of(errorcode) < 0)
        return report_win_errorf(win, MPI_ERR_ARG,
                                 "%s: invalid error code %d: neither an error class nor a code MPI returned or "
                                 "MPI_Add_error_code made",
                                 fn, errorcode);
    call_win_errhandler(win, errorcode, fn);
    return MPI_SUCCESS;  // MPI: success once the handler was called and returned
}

}  // extern "C"
