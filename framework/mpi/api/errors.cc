// Error handlers of communicators, what error codes and classes mean, and the classes, codes and
// strings a program adds.
#include <cstring>
#include <string>

#include "mpi/api/profiling.h"
#include "mpi/arg_check.h"
#include "mpi/errhandler.h"
#include "mpi/error_codes.h"
#include "mpi/mpi_state.h"

using namespace plexus::mpi;

namespace {

int check_errhandler(const char *fn, const Comm *comm, const Errhandler *e) {
    if (errhandler_valid(e)) return MPI_SUCCESS;
    if (!e) return report_errorf(comm, MPI_ERR_ARG, "%s: invalid error handler: MPI_ERRHANDLER_NULL", fn);
    return report_errorf(comm, MPI_ERR_ARG, "%s: invalid error handler %p: not an error handler (freed, or never made by MPI)", fn,
                         static_cast<const void *>(e));
}

int invalid_code(const char *fn, int code) {
    return report_errorf(MPI_COMM_WORLD, MPI_ERR_ARG,
                         "%s: invalid error code %d: neither an error class (0..%d, or one MPI_Add_error_class "
                         "returned) nor a code MPI returned or MPI_Add_error_code made",
                         fn, code, kLastClass);
}

// Predefined handlers are never deleted: comparing them is enough to tell them apart.
const char *handler_name(const Errhandler *e) { return e->predefined ? e->name : "a user error handler"; }

}  // namespace

extern "C" {

PLEXUS_MPI_ALIAS(Comm_create_errhandler)
int PMPI_Comm_create_errhandler(MPI_Comm_errhandler_function *function, MPI_Errhandler *errhandler) {
    constexpr const char *fn = "MPI_Comm_create_errhandler";
    running(fn);
    if (!function) return report_errorf(MPI_COMM_WORLD, MPI_ERR_ARG, "%s: invalid function: NULL", fn);
    if (int rc = check_pointer(fn, MPI_COMM_WORLD, errhandler, "errhandler")) return rc;
    *errhandler = new Errhandler{.action = ErrorAction::Call,
                                 .predefined = false,
                                 .references = 1,  // the handle
                                 .name = "user error handler",
                                 .function = function,
                                 .handles = 1};
    return MPI_SUCCESS;
}

PLEXUS_MPI_ALIAS(Comm_set_errhandler)
int PMPI_Comm_set_errhandler(MPI_Comm comm, MPI_Errhandler errhandler) {
    constexpr const char *fn = "MPI_Comm_set_errhandler";
    running(fn);
    if (int rc = check_comm(fn, comm)) return rc;
    if (int rc = check_errhandler(fn, comm, errhandler)) return rc;
    if (errhandler->for_win)
        return report_errorf(comm, MPI_ERR_ARG,
                             "%s: errhandler was made by MPI_Win_create_errhandler; communicators take handlers of "
                             "MPI_Comm_create_errhandler (or the predefined ones)",
                             fn);
    // Retain first: setting the handler a communicator already has must not delete it.
    errhandler_retain(errhandler);
    errhandler_release(comm->errhandler);
    comm->errhandler = errhandler;
    return MPI_SUCCESS;
}

PLEXUS_MPI_ALIAS(Comm_get_errhandler)
int PMPI_Comm_get_errhandler(MPI_Comm comm, MPI_Errhandler *errhandler) {
    constexpr const char *fn = "MPI_Comm_get_errhandler";
    running(fn);
    if (int rc = check_comm(fn, comm)) return rc;
    if (int rc = check_pointer(fn, comm, errhandler, "errhandler")) return rc;
    Errhandler *e = comm->errhandler;
    errhandler_retain(e);  // a new handle: the caller may MPI_Errhandler_free it
    ++e->handles;
    *errhandler = e;
    return MPI_SUCCESS;
}

PLEXUS_MPI_ALIAS(Errhandler_free)
int PMPI_Errhandler_free(MPI_Errhandler *errhandler) {
    constexpr const char *fn = "MPI_Errhandler_free";
    running(fn);
    if (int rc = check_pointer(fn, MPI_COMM_WORLD, errhandler, "errhandler")) return rc;
    Errhandler *e = *errhandler;
    if (int rc = check_errhandler(fn, MPI_COMM_WORLD, e)) return rc;
    if (e->handles == 0)
        return report_errorf(MPI_COMM_WORLD, MPI_ERR_ARG,
                             "%s: %s has no handle left to free (%s)", fn, handler_name(e),
                             e->predefined ? "a predefined handler can be freed only as often as "
                                             "MPI_Comm_get_errhandler returned it"
                                           : "every handle MPI_Comm_create_errhandler or "
                                             "MPI_Comm_get_errhandler returned was freed already");
    --e->handles;
    *errhandler = MPI_ERRHANDLER_NULL;
    errhandler_release(e);  // last: it may delete e
    return MPI_SUCCESS;
}

PLEXUS_MPI_ALIAS(Comm_call_errhandler)
int PMPI_Comm_call_errhandler(MPI_Comm comm, int errorcode) {
    constexpr const char *fn = "MPI_Comm_call_errhandler";
    running(fn);
    if (int rc = check_comm(fn, comm)) return rc;
    const Errhandler *e = errhandler_valid(comm->errhandler) ? comm->errhandler : MPI_ERRORS_ARE_FATAL;
    switch (e->action) {
    case ErrorAction::Abort: {
        std::string text;
        if (!error_string_of(errorcode, &text)) text = "not an error code MPI knows";
        const int error_class = error_class_of(errorcode);
        abort_job(error_class > 0 ? error_class : 1,
                  std::string(fn) + ": error code " + std::to_string(errorcode) + " (" + text +
                      ") under MPI_ERRORS_ARE_FATAL on " + comm_name(comm),
                  std::string(fn) + ": MPI_ERRORS_ARE_FATAL on " + comm_name(comm));
    }
    case ErrorAction::Return:
        break;
    case ErrorAction::Call: {
        MPI_Comm handle = comm;
        int code = errorcode;
        e->function(&handle, &code);
        break;
    }
    }
    // MPI: success once the handler was called and returned.
    return MPI_SUCCESS;
}

// Both work at any time: a program may explain a failed MPI_Init.
PLEXUS_MPI_ALIAS(Error_string)
int PMPI_Error_string(int errorcode, char *string, int *resultlen) {
    constexpr const char *fn = "MPI_Error_string";
    if (int rc = check_pointer(fn, MPI_COMM_WORLD, string, "string")) return rc;
    if (int rc = check_pointer(fn, MPI_COMM_WORLD, resultlen, "resultlen")) return rc;
    std::string text;
    if (!error_string_of(errorcode, &text)) return invalid_code(fn, errorcode);
    const size_t n = text.size() < MPI_MAX_ERROR_STRING ? text.size() : MPI_MAX_ERROR_STRING - 1;
    std::memcpy(string, text.data(), n);
    string[n] = '\0';
    *resultlen = static_cast<int>(n);
    return MPI_SUCCESS;
}

PLEXUS_MPI_ALIAS(Error_class)
int PMPI_Error_class(int errorcode, int *errorclass) {
    constexpr const char *fn = "MPI_Error_class";
    if (int rc = check_pointer(fn, MPI_COMM_WORLD, errorclass, "errorclass")) return rc;
    const int c = error_class_of(errorcode);
    if (c < 0) return invalid_code(fn, errorcode);
    *errorclass = c;
    return MPI_SUCCESS;
}

PLEXUS_MPI_ALIAS(Add_error_class)
int PMPI_Add_error_class(int *errorclass) {
    constexpr const char *fn = "MPI_Add_error_class";
    running(fn);
    if (int rc = check_pointer(fn, MPI_COMM_WORLD, errorclass, "errorclass")) return rc;
    const int c = user_errors().add_class();
    if (c < 0)
        return report_errorf(MPI_COMM_WORLD, MPI_ERR_OTHER,
                             "%s: no error class left: a program may add %d (classes %d..%d)", fn,
                             UserErrors::kMaxClasses, UserErrors::kFirstClass,
                             UserErrors::kFirstClass + UserErrors::kMaxClasses - 1);
    *errorclass = c;
    return MPI_SUCCESS;
}

PLEXUS_MPI_ALIAS(Add_error_code)
int PMPI_Add_error_code(int errorclass, int *errorcode) {
    constexpr const char *fn = "MPI_Add_error_code";
    running(fn);
    if (int rc = check_pointer(fn, MPI_COMM_WORLD, errorcode, "errorcode")) return rc;
    const int code = user_errors().add_code(errorclass);
    if (code == -1)
        return report_errorf(MPI_COMM_WORLD, MPI_ERR_ARG,
                             "%s: invalid error class %d: neither a predefined class (1..%d) nor one "
                             "MPI_Add_error_class returned",
                             fn, errorclass, kLastClass);
    if (code < 0)
        return report_errorf(MPI_COMM_WORLD, MPI_ERR_OTHER, "%s: no error code left for class %d", fn, errorclass);
    *errorcode = code;
    return MPI_SUCCESS;
}

PLEXUS_MPI_ALIAS(Add_error_string)
int PMPI_Add_error_string(int errorcode, const char *string) {
    constexpr const char *fn = "MPI_Add_error_string";
    running(fn);
    if (int rc = check_pointer(fn, MPI_COMM_WORLD, string, "string")) return rc;
    const size_t length = std::strlen(string);
    if (length >= MPI_MAX_ERROR_STRING)
        return report_errorf(MPI_COMM_WORLD, MPI_ERR_ARG,
                             "%s: string of %zu characters is too long: at most %d (MPI_MAX_ERROR_STRING - 1)",
                             fn, length, MPI_MAX_ERROR_STRING - 1);
    if (!user_errors().set_string(errorcode, string)) {
        if (error_class_of(errorcode) >= 0)
            return report_errorf(MPI_COMM_WORLD, MPI_ERR_ARG,
                                 "%s: error code %d is predefined: only the classes and codes "
                                 "MPI_Add_error_class/MPI_Add_error_code made take a string",
                                 fn, errorcode);
        return invalid_code(fn, errorcode);
    }
    return MPI_SUCCESS;
}

// The MPI-1 names (deprecated since MPI-2.0), for old programs.
PLEXUS_MPI_ALIAS(Errhandler_create)
int PMPI_Errhandler_create(MPI_Handler_function *function, MPI_Errhandler *errhandler) {
    return PMPI_Comm_create_errhandler(function, errhandler);
}

PLEXUS_MPI_ALIAS(Errhandler_set)
int PMPI_Errhandler_set(MPI_Comm comm, MPI_Errhandler errhandler) { return PMPI_Comm_set_errhandler(comm, errhandler); }

PLEXUS_MPI_ALIAS(Errhandler_get)
int PMPI_Errhandler_get(MPI_Comm comm, MPI_Errhandler *errhandler) { return PMPI_Comm_get_errhandler(comm, errhandler); }

}  // extern "C"
