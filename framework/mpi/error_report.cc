// The error handlers at work: fatal errors end the job with the message, the others become codes
// (which a user handler sees first).
#include "mpi/error_report.h"

#include <cstdarg>
#include <cstdio>
#include <cstdlib>

#include "mpi/errhandler.h"
#include "mpi/error_codes.h"
#include "runtime/runtime.h"

namespace plexus::mpi {
namespace {

AbortHook g_abort_hook = nullptr;

const Errhandler *handler_of(const Comm *comm) {
    const Comm *c = comm_valid(comm) ? comm : MPI_COMM_WORLD;
    return errhandler_valid(c->errhandler) ? c->errhandler : MPI_ERRORS_ARE_FATAL;
}

std::string rank_prefix() {
    runtime::Runtime *rt = runtime::Runtime::current();
    return rt ? "[rank " + std::to_string(rt->job().rank) + "] " : "plexus: ";
}

}  // namespace

void set_abort_hook(AbortHook hook) { g_abort_hook = hook; }

int report_error(const Comm *comm, int error_class, const std::string &message) {
    const Errhandler *handler = handler_of(comm);
    if (handler->action == ErrorAction::Abort) {
        const Comm *on = comm_valid(comm) ? comm : MPI_COMM_WORLD;
        const std::string why = std::string(class_name(error_class)) + " under MPI_ERRORS_ARE_FATAL on " + comm_name(on);
        // Messages start with the function's name: the short reason names it too.
        const std::string function = message.substr(0, message.find(':'));
        abort_job(error_class, message + " (" + why + ")", function + ": " + why);
    }
    const int code = error_codes().make(error_class, message);
    if (handler->action == ErrorAction::Call) {
        // The handler gets a handle it may use (even to free the communicator's handler), and
        // a copy of the code: what the call returns does not depend on what the handler does.
        MPI_Comm on = const_cast<Comm *>(comm_valid(comm) ? comm : MPI_COMM_WORLD);
        int handed = code;
        handler->function(&on, &handed);
    }
    return code;
}

int report_code(const Comm *comm, int code, const std::string &message) {
    const Errhandler *handler = handler_of(comm);
    const Comm *on = comm_valid(comm) ? comm : MPI_COMM_WORLD;
    if (handler->action == ErrorAction::Abort) {
        const std::string why = "error code " + std::to_string(code) + " under MPI_ERRORS_ARE_FATAL on " + comm_name(on);
        const std::string function = message.substr(0, message.find(':'));
        const int error_class = error_class_of(code);  // the exit status: a small number
        abort_job(error_class > 0 ? error_class : 1, message + " (" + why + ")", function + ": " + why);
    }
    if (handler->action == ErrorAction::Call) {
        MPI_Comm handle = const_cast<Comm *>(on);
        int handed = code;
        handler->function(&handle, &handed);
    }
    return code;
}

int report_errorf(const Comm *comm, int error_class, const char *format, ...) {
    char text[MPI_MAX_ERROR_STRING];
    va_list ap;
    va_start(ap, format);
    std::vsnprintf(text, sizeof text, format, ap);
    va_end(ap);
    return report_error(comm, error_class, text);
}

void abort_job(int status, const std::string &message, const std::string &reason) {
    if (g_abort_hook) {
        g_abort_hook(status, message);
        std::abort();  // a hook must not return (tests throw out of it)
    }
    const std::string line = rank_prefix() + message;
    std::fflush(stdout);
    std::fprintf(stderr, "%s\n", line.c_str());
    std::fflush(stderr);
    // The runtime and the launcher say again why the job ends; the line above has the detail.
    if (runtime::Runtime *rt = runtime::Runtime::current()) rt->abort(status, reason.empty() ? message : reason);
    std::_Exit(status == 0 ? 1 : status);
}

std::string comm_name(const Comm *comm) {
    if (!comm) return "MPI_COMM_NULL";
    if (!comm_valid(comm)) return "(not a communicator)";
    if (!comm->name.empty()) return comm->name;
    return "communicator " + std::to_string(comm->context_id);
}

std::string type_name(const Datatype *type) {
    if (!type) return "MPI_DATATYPE_NULL";
    if (type->magic != Datatype::kMagic) return "(not a datatype)";
    return type->name[0] ? type->name : "unnamed datatype";
}

}  // namespace plexus::mpi
