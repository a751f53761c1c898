// The services table the MPI layer gives dpm modules (plexus_dpm_services_t): the job manager
// through the runtime (launch, names, parent, other jobs' sizes), context ids and
// inter-communicators across jobs (dpm_intercomm.h), the connect timeout, error messages.
#pragma once

#include <string>

#include <plexus/dpm.h>

namespace plexus::mpi::dpm {

// The one table; valid while MPI runs.
const plexus_dpm_services_t &services();

// dpm_base_connect_timeout in milliseconds (> 0).
int connect_timeout_ms();

// The key under which MPI_Publish_name publishes service (the job manager's store is shared
// with the components' own messages, which never start so); the module and the services get it.
std::string service_key(const char *service);

}  // namespace plexus::mpi::dpm
