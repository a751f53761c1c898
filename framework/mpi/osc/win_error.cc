// Window error handlers at work (win_error.h).
#include "mpi/osc/win_error.h"

#include <cstdarg>
#include <cstdio>

#include "mpi/errhandler.h"
#include "mpi/error_codes.h"
#include "mpi/error_report.h"

namespace plexus::mpi {
namespace {

const Errhandler *handler_of(const Win *win) {
    return errhandler_valid(win->errhandler) ? win->errhandler : MPI_ERRORS_ARE_FATAL;
}

// The user's handler, called with a handle it may use and a copy of the code (what the call
// returns does not depend on what the handler does).
void call_user(const Errhandler *handler, const Win *win, int code) {
    MPI_Win handle = const_cast<Win *>(win);
    int handed = code;
    reinterpret_cast<MPI_Win_errhandler_function *>(handler->function)(&handle, &handed);
}

[[noreturn]] void abort_on(const Win *win, int status, const std::string &message, const std::string &what) {
    const std::string why = what + " under MPI_ERRORS_ARE_FATAL on " + win_name(win);
    // Messages start with the function's name: the short reason names it too.
    const std::string function = message.substr(0, message.find(':'));
    abort_job(status > 0 ? status : 1, message + " (" + why + ")", function + ": " + why);
}

}  // namespace

std::string win_name(const Win *win) {
    if (!win) return "MPI_WIN_NULL";
    if (!win_valid(win)) return "(not a window)";
    if (!win->name.empty()) return win->name;
    return "window " + std::to_string(win->fortran);
}

int report_win_error(const Win *win, int error_class, const std::string &message) {
    if (!win_valid(win)) return report_error(MPI_COMM_WORLD, error_class, message);
    const Errhandler *handler = handler_of(win);
    if (handler->action == ErrorAction::Abort) abort_on(win, error_class, message, class_name(error_class));
    const int code = error_codes().make(error_class, message);
    if (handler->action == ErrorAction::Call) call_user(handler, win, code);
    return code;
}

int report_win_errorf(const Win *win, int error_class, const char *format, ...) {
    char text[MPI_MAX_ERROR_STRING];
    va_list ap;
    va_start(ap, format);
    std::vsnprintf(text, sizeof text, format, ap);
    va_end(ap);
    return report_win_error(win, error_class, text);
}

int report_win_code(const Win *win, int code, const std::string &message) {
    if (!win_valid(win)) return report_code(MPI_COMM_WORLD, code, message);
    const Errhandler *handler = handler_of(win);
    if (handler->action == ErrorAction::Abort)
        abort_on(win, error_class_of(code), message, "error code " + std::to_string(code));
    if (handler->action == ErrorAction::Call) call_user(handler, win, code);
    return code;
}

void call_win_errhandler(Win *win, int code, const char *function) {
    const Errhandler *handler = handler_of(win);
    if (handler->action == ErrorAction::Abort) {
        std::string text;
        if (!error_string_of(code, &text)) text = "not an error code MPI knows";
        abort_on(win, error_class_of(code),
                 std::string(function) + ": error code " + std::to_string(code) + " (" + text + ")",
                 "MPI_Win_call_errhandler");
    }
    if (handler->action == ErrorAction::Call) call_user(handler, win, code);
}

int report_module_error(Win *win, int error_class, const char *function, const char *what) {
    std::string said;
    said.swap(win->module_error);
    const int cls = is_class(error_class) && error_class != MPI_SUCCESS ? error_class : MPI_ERR_INTERN;
    if (said.empty()) said = std::string(what) + ": " + class_text(cls);
    return report_win_error(win, cls,
                            std::string(function) + ": " + said + " (osc " + win->component + " on " + win_name(win) + ")");
}

int report_unsupported(const Win *win, const char *function, const char *member) {
    return report_win_errorf(win, MPI_ERR_UNSUPPORTED_OPERATION,
                             "%s: osc component %s, which serves %s, does not implement %s", function,
                             win->component.c_str(), win_name(win).c_str(), member);
}

}  // namespace plexus::mpi
