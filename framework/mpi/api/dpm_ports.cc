// Ports: MPI_Open_port, MPI_Close_port, MPI_Comm_accept, MPI_Comm_connect. The port name is the
// dpm module's; accept and connect are collective over comm with the root's port significant.
#include <cstring>

#include "mpi/api/profiling.h"
#include "mpi/arg_check.h"
#include "mpi/coll/coll_handles.h"
#include "mpi/comm/comm_checks.h"
#include "mpi/dpm/dpm_api.h"
#include "mpi/mpi_state.h"

using namespace plexus::mpi;

namespace {

int check_port(const char *fn, const Comm *comm, const char *port_name) {
    if (!port_name) return report_errorf(comm, MPI_ERR_PORT, "%s: port_name is NULL", fn);
    if (!*port_name) return report_errorf(comm, MPI_ERR_PORT, "%s: port_name is empty", fn);
    if (std::strlen(port_name) >= MPI_MAX_PORT_NAME)
        return report_errorf(comm, MPI_ERR_PORT, "%s: port_name is longer than MPI_MAX_PORT_NAME - 1 (%d)", fn,
                             MPI_MAX_PORT_NAME - 1);
    return MPI_SUCCESS;
}

using Meet = int (*)(plexus_dpm_module_t *, const char *, int, plexus_coll_comm_t *, plexus_coll_comm_t **);

int meet(const char *fn, bool accept, const char *port_name, MPI_Info info, int root, MPI_Comm comm,
         MPI_Comm *newcomm) {
    running(fn);
    if (int rc = check_intra(fn, comm, "comm")) return rc;
    if (int rc = check_local_rank(fn, comm, root, "root")) return rc;
    if (int rc = check_pointer(fn, comm, newcomm, "newcomm")) return rc;
    int root_rc = MPI_SUCCESS;
    if (comm->rank == root) {
        root_rc = check_port(fn, comm, port_name);
        if (root_rc == MPI_SUCCESS) root_rc = dpm::check_info(fn, comm, info, "info");
    }
    *newcomm = MPI_COMM_NULL;
    if (int rc = dpm::root_verdict(fn, comm, root, root_rc)) return rc;
    int rc = MPI_SUCCESS;
    plexus_dpm_module_t *m = dpm::module_or_report(fn, comm, &rc);
    if (!m) return rc;
    Meet f = accept ? m->accept : m->connect;
    if (!f) return report_errorf(comm, MPI_ERR_UNSUPPORTED_OPERATION, "%s: the dpm component has no %s", fn,
                                 accept ? "accept" : "connect");
    plexus_coll_comm_t *out = nullptr;
    dpm::LongWaits long_waits;  // the other side may come in minutes
    rc = f(m, comm->rank == root ? port_name : nullptr, root, coll::handle(comm), &out);
    return dpm::meeting_result(fn, comm, rc, out, newcomm, accept ? "accept failed" : "connect failed");
}

}  // namespace

extern "C" {

PLEXUS_MPI_ALIAS(Open_port)
int PMPI_Open_port(MPI_Info info, char *port_name) {
    constexpr const char *fn = "MPI_Open_port";
    running(fn);
    if (int rc = check_pointer(fn, MPI_COMM_WORLD, port_name, "port_name")) return rc;
    if (int rc = dpm::check_info(fn, MPI_COMM_WORLD, info, "info")) return rc;
    int rc = MPI_SUCCESS;
    plexus_dpm_module_t *m = dpm::module_or_report(fn, MPI_COMM_WORLD, &rc);
    if (!m) return rc;
    if (!m->open_port)
        return report_errorf(MPI_COMM_WORLD, MPI_ERR_UNSUPPORTED_OPERATION, "%s: the dpm component has no ports", fn);
    char port[PLEXUS_DPM_PORT_MAX] = {};
    rc = m->open_port(m, port);
    if (rc == MPI_SUCCESS) std::memcpy(port_name, port, std::strlen(port) + 1);
    return dpm::module_result(fn, MPI_COMM_WORLD, rc, "opening a port failed");
}

PLEXUS_MPI_ALIAS(Close_port)
int PMPI_Close_port(const char *port_name) {
    constexpr const char *fn = "MPI_Close_port";
    running(fn);
    if (int rc = check_port(fn, MPI_COMM_WORLD, port_name)) return rc;
    int rc = MPI_SUCCESS;
    plexus_dpm_module_t *m = dpm::module_or_report(fn, MPI_COMM_WORLD, &rc);
    if (!m) return rc;
    if (!m->close_port)
        return report_errorf(MPI_COMM_WORLD, MPI_ERR_UNSUPPORTED_OPERATION, "%s: the dpm component has no ports", fn);
    return dpm::module_result(fn, MPI_COMM_WORLD, m->close_port(m, port_name), "closing the port failed");
}

PLEXUS_MPI_ALIAS(Comm_accept)
int PMPI_Comm_accept(const char *port_name, MPI_Info info, int root, MPI_Comm comm, MPI_Comm *newcomm) {
    return meet("MPI_Comm_accept", true, port_name, info, root, comm, newcomm);
}

PLEXUS_MPI_ALIAS(Comm_connect)
int PMPI_Comm_connect(const char *port_name, MPI_Info info, int root, MPI_Comm comm, MPI_Comm *newcomm) {
    return meet("MPI_Comm_connect", false, port_name, info, root, comm, newcomm);
}

}  // extern "C"
