// Error handlers of communicators, and what error codes and classes mean.
#include <cstring>
#include <string>

#include "mpi/arg_check.h"
#include "mpi/errhandler.h"
#include "mpi/error_codes.h"
#include "mpi/mpi_state.h"

using namespace plexus::mpi;

namespace {

int check_errhandler(const char *fn, const Comm *comm, const Errhandler *e) {
    if (errhandler_valid(e)) return MPI_SUCCESS;
    if (!e) return report_errorf(comm, MPI_ERR_ARG, "%s: invalid error handler: MPI_ERRHANDLER_NULL", fn);
    return report_errorf(comm, MPI_ERR_ARG, "%s: invalid error handler %p: not an error handler", fn,
                         static_cast<const void *>(e));
}

int invalid_code(const char *fn, int code) {
    return report_errorf(MPI_COMM_WORLD, MPI_ERR_ARG,
                         "%s: invalid error code %d: neither an error class (0..%d) nor a code MPI returned", fn, code,
                         kLastClass);
}

}  // namespace

extern "C" {

int MPI_Comm_set_errhandler(MPI_Comm comm, MPI_Errhandler errhandler) {
    constexpr const char *fn = "MPI_Comm_set_errhandler";
    running(fn);
    if (int rc = check_comm(fn, comm)) return rc;
    if (int rc = check_errhandler(fn, comm, errhandler)) return rc;
    comm->errhandler = errhandler;
    return MPI_SUCCESS;
}

int MPI_Comm_get_errhandler(MPI_Comm comm, MPI_Errhandler *errhandler) {
    constexpr const char *fn = "MPI_Comm_get_errhandler";
    running(fn);
    if (int rc = check_comm(fn, comm)) return rc;
    if (int rc = check_pointer(fn, comm, errhandler, "errhandler")) return rc;
    *errhandler = comm->errhandler;
    ++comm->errhandler->references;  // the caller may MPI_Errhandler_free it
    return MPI_SUCCESS;
}

int MPI_Errhandler_free(MPI_Errhandler *errhandler) {
    constexpr const char *fn = "MPI_Errhandler_free";
    running(fn);
    if (int rc = check_pointer(fn, MPI_COMM_WORLD, errhandler, "errhandler")) return rc;
    Errhandler *e = *errhandler;
    if (int rc = check_errhandler(fn, MPI_COMM_WORLD, e)) return rc;
    if (e->predefined && e->references == 0)
        return report_errorf(MPI_COMM_WORLD, MPI_ERR_ARG,
                             "%s: %s is predefined and cannot be freed (only the handles MPI_Comm_get_errhandler "
                             "returns can)",
                             fn, e->name);
    --e->references;
    *errhandler = MPI_ERRHANDLER_NULL;
    return MPI_SUCCESS;
}

// Both work at any time: a program may explain a failed MPI_Init.
int MPI_Error_string(int errorcode, char *string, int *resultlen) {
    constexpr const char *fn = "MPI_Error_string";
    if (int rc = check_pointer(fn, MPI_COMM_WORLD, string, "string")) return rc;
    if (int rc = check_pointer(fn, MPI_COMM_WORLD, resultlen, "resultlen")) return rc;
    std::string text;
    if (!error_codes().string_of(errorcode, &text)) return invalid_code(fn, errorcode);
    const size_t n = text.size() < MPI_MAX_ERROR_STRING ? text.size() : MPI_MAX_ERROR_STRING - 1;
    std::memcpy(string, text.data(), n);
    string[n] = '\0';
    *resultlen = static_cast<int>(n);
    return MPI_SUCCESS;
}

int MPI_Error_class(int errorcode, int *errorclass) {
    constexpr const char *fn = "MPI_Error_class";
    if (int rc = check_pointer(fn, MPI_COMM_WORLD, errorclass, "errorclass")) return rc;
    const int c = error_codes().class_of(errorcode);
    if (c < 0) return invalid_code(fn, errorcode);
    *errorclass = c;
    return MPI_SUCCESS;
}

}  // extern "C"
