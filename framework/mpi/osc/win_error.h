// Reporting an error on a window the way its error handler says (MPI-2.2 8.3.2): abort with the
// message (MPI_ERRORS_ARE_FATAL, the default on windows), return a code carrying it
// (MPI_ERRORS_RETURN), or call the handler MPI_Win_create_errhandler made with the window and
// the code. Errors about no window (MPI_WIN_NULL, a freed handle) go to MPI_COMM_WORLD's handler.
#pragma once

#include <string>

#include "mpi/osc/window.h"

namespace plexus::mpi {

[[gnu::cold]] int report_win_error(const Win *win, int error_class, const std::string &message);
[[gnu::cold, gnu::format(printf, 3, 4)]] int report_win_errorf(const Win *win, int error_class, const char *format,
                                                                ...);
// A code that exists already (one a user callback returned) to win's handler; returns code.
[[gnu::cold]] int report_win_code(const Win *win, int code, const std::string &message);

// MPI_Win_call_errhandler: hands code to win's handler (which may abort); win is valid.
void call_win_errhandler(Win *win, int code, const char *function);

// A module function answered error_class: the report carries what the module said through
// services.set_error, or when it said nothing, that class's text after what.
[[gnu::cold]] int report_module_error(Win *win, int error_class, const char *function, const char *what);

// The module serving win left the function for this call NULL (MPI_ERR_UNSUPPORTED_OPERATION).
[[gnu::cold]] int report_unsupported(const Win *win, const char *function, const char *member);

// What a module call answered: MPI_SUCCESS, or the reported error (report_module_error).
inline int module_result(Win *win, int rc, const char *function, const char *what) {
    return rc == 0 ? 0 : report_module_error(win, rc, function, what);
}

}  // namespace plexus::mpi
