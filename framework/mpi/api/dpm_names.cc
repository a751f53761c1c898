// The name service: MPI_Publish_name, MPI_Lookup_name, MPI_Unpublish_name, through the dpm
// module or, where it has none of its own, the job manager's (services).
#include <cstring>
#include <string>

#include "mpi/api/profiling.h"
#include "mpi/arg_check.h"
#include "mpi/dpm/dpm_api.h"
#include "mpi/dpm/dpm_services.h"
#include "mpi/mpi_state.h"

using namespace plexus::mpi;

namespace {

int check_service(const char *fn, const char *service_name) {
    if (!service_name) return report_errorf(MPI_COMM_WORLD, MPI_ERR_ARG, "%s: service_name is NULL", fn);
    if (!*service_name) return report_errorf(MPI_COMM_WORLD, MPI_ERR_ARG, "%s: service_name is empty", fn);
    return MPI_SUCCESS;
}

int check_port(const char *fn, const char *port_name) {
    if (!port_name) return report_errorf(MPI_COMM_WORLD, MPI_ERR_ARG, "%s: port_name is NULL", fn);
    return MPI_SUCCESS;
}

}  // namespace

extern "C" {

PLEXUS_MPI_ALIAS(Publish_name)
int PMPI_Publish_name(const char *service_name, MPI_Info info, const char *port_name) {
    constexpr const char *fn = "MPI_Publish_name";
    running(fn);
    if (int rc = check_service(fn, service_name)) return rc;
    if (int rc = check_port(fn, port_name)) return rc;
    if (!*port_name) return report_errorf(MPI_COMM_WORLD, MPI_ERR_PORT, "%s: port_name is empty", fn);
    if (int rc = dpm::check_info(fn, MPI_COMM_WORLD, info, "info")) return rc;
    int rc = MPI_SUCCESS;
    plexus_dpm_module_t *m = dpm::module_or_report(fn, MPI_COMM_WORLD, &rc);
    if (!m) return rc;
    const std::string key = dpm::service_key(service_name);
    rc = m->publish ? m->publish(m, key.c_str(), port_name) : dpm::services().publish(key.c_str(), port_name);
    return dpm::module_result(fn, MPI_COMM_WORLD, rc, "publishing failed");
}

PLEXUS_MPI_ALIAS(Lookup_name)
int PMPI_Lookup_name(const char *service_name, MPI_Info info, char *port_name) {
    constexpr const char *fn = "MPI_Lookup_name";
    running(fn);
    if (int rc = check_service(fn, service_name)) return rc;
    if (int rc = check_port(fn, port_name)) return rc;
    if (int rc = dpm::check_info(fn, MPI_COMM_WORLD, info, "info")) return rc;
    int rc = MPI_SUCCESS;
    plexus_dpm_module_t *m = dpm::module_or_report(fn, MPI_COMM_WORLD, &rc);
    if (!m) return rc;
    char port[PLEXUS_DPM_PORT_MAX] = {};
    const std::string key = dpm::service_key(service_name);
    rc = m->lookup ? m->lookup(m, key.c_str(), port) : dpm::services().lookup(key.c_str(), port, sizeof port);
    if (rc == MPI_SUCCESS) std::memcpy(port_name, port, std::strlen(port) + 1);
    return dpm::module_result(fn, MPI_COMM_WORLD, rc, "lookup failed");
}

PLEXUS_MPI_ALIAS(Unpublish_name)
int PMPI_Unpublish_name(const char *service_name, MPI_Info info, const char *port_name) {
    constexpr const char *fn = "MPI_Unpublish_name";
    running(fn);
    if (int rc = check_service(fn, service_name)) return rc;
    if (int rc = check_port(fn, port_name)) return rc;
    if (int rc = dpm::check_info(fn, MPI_COMM_WORLD, info, "info")) return rc;
    int rc = MPI_SUCCESS;
    plexus_dpm_module_t *m = dpm::module_or_report(fn, MPI_COMM_WORLD, &rc);
    if (!m) return rc;
    const std::string key = dpm::service_key(service_name);
    rc = m->unpublish ? m->unpublish(m, key.c_str()) : dpm::services().unpublish(key.c_str());
    return dpm::module_result(fn, MPI_COMM_WORLD, rc, "unpublishing failed");
}

}  // extern "C"
