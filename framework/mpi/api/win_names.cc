// MPI_Win_set_name and MPI_Win_get_name (MPI-2.2 6.8): a window's name for messages and tools,
// at most MPI_MAX_OBJECT_NAME - 1 characters (longer names are cut, as MPI allows).
#include <cstring>

#include "mpi/api/profiling.h"
#include "mpi/mpi_state.h"
#include "mpi/osc/win_checks.h"
#include "mpi/osc/win_error.h"

using namespace plexus::mpi;

extern "C" {

PLEXUS_MPI_ALIAS(Win_set_name)
int PMPI_Win_set_name(MPI_Win win, const char *win_name) {
    constexpr const char *fn = "MPI_Win_set_name";
    running(fn);
    if (int rc = osc::check_win(fn, win)) return rc;
    if (!win_name) return report_win_errorf(win, MPI_ERR_ARG, "%s: win_name is NULL", fn);
    win->name.assign(win_name, strnlen(win_name, MPI_MAX_OBJECT_NAME - 1));
    return MPI_SUCCESS;
}

// A window never named has the empty name (MPI-2.2 6.8).
PLEXUS_MPI_ALIAS(Win_get_name)
int PMPI_Win_get_name(MPI_Win win, char *win_name, int *resultlen) {
    constexpr const char *fn = "MPI_Win_get_name";
    running(fn);
    if (int rc = osc::check_win(fn, win)) return rc;
    if (!win_name) return report_win_errorf(win, MPI_ERR_ARG, "%s: win_name is NULL", fn);
    if (!resultlen) return report_win_errorf(win, MPI_ERR_ARG, "%s: resultlen is NULL", fn);
    std::memcpy(win_name, win->name.c_str(), win->name.size() + 1);
    *resultlen = static_cast<int>(win->name.size());
    return MPI_SUCCESS;
}

}  // extern "C"
