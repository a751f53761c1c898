// MPI_Comm_join: two processes joined by a connected socket get an inter-communicator of one
// process each. The fd is checked here (a socket, connected); the module trades names over it.
#include <sys/socket.h>
#include <sys/stat.h>

#include "mpi/api/profiling.h"
#include "mpi/arg_check.h"
#include "mpi/dpm/dpm_api.h"
#include "mpi/mpi_state.h"

using namespace plexus::mpi;

namespace {

int check_fd(const char *fn, int fd) {
    struct stat st;
    if (fd < 0 || ::fstat(fd, &st) != 0)
        return report_errorf(MPI_COMM_WORLD, MPI_ERR_ARG, "%s: fd %d is not an open file descriptor", fn, fd);
    if (!S_ISSOCK(st.st_mode))
        return report_errorf(MPI_COMM_WORLD, MPI_ERR_ARG, "%s: fd %d is not a socket (MPI_Comm_join needs a "
                             "connected socket to the other process)", fn, fd);
    struct sockaddr_storage peer;
    socklen_t len = sizeof peer;
    if (::getpeername(fd, reinterpret_cast<struct sockaddr *>(&peer), &len) != 0)
        return report_errorf(MPI_COMM_WORLD, MPI_ERR_ARG, "%s: socket fd %d is not connected", fn, fd);
    return MPI_SUCCESS;
}

}  // namespace

extern "C" {

PLEXUS_MPI_ALIAS(Comm_join)
int PMPI_Comm_join(int fd, MPI_Comm *intercomm) {
    constexpr const char *fn = "MPI_Comm_join";
    running(fn);
    if (int rc = check_pointer(fn, MPI_COMM_WORLD, intercomm, "intercomm")) return rc;
    *intercomm = MPI_COMM_NULL;
    if (int rc = check_fd(fn, fd)) return rc;
    int rc = MPI_SUCCESS;
    plexus_dpm_module_t *m = dpm::module_or_report(fn, MPI_COMM_WORLD, &rc);
    if (!m) return rc;
    if (!m->join)
        return report_errorf(MPI_COMM_WORLD, MPI_ERR_UNSUPPORTED_OPERATION, "%s: the dpm component has no join", fn);
    plexus_coll_comm_t *out = nullptr;
    dpm::LongWaits long_waits;  // the other process may come much later
    rc = m->join(m, fd, &out);
    return dpm::meeting_result(fn, MPI_COMM_WORLD, rc, out, intercomm, "join failed");
}

}  // extern "C"
