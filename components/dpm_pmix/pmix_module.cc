// The module: init (meeting the parents), finalize (closing ports), and its table.
#include "pmix_module.h"

#include <plexus/sdk/dpm_module.hpp>
#include <plexus/sdk/timeline.hpp>

#include <cstdarg>
#include <memory>

namespace plexus::dpm_pmix {
namespace {

std::unique_ptr<PmixModule> g_module;

int init(plexus_dpm_module_t *self, const plexus_dpm_services_t *services, plexus_coll_comm_t *world,
         plexus_coll_comm_t **parent) {
    PmixModule &m = self_of(self);
    if (!services || services->major != PLEXUS_DPM_SERVICES_MAJOR || services->minor < 1 ||
        services->struct_size < sizeof(plexus_dpm_services_t))
        return PLEXUS_DPM_ERR_INTERN;
    m.services = services;
    plexus_job_info_t job{};
    job.struct_size = sizeof job;
    if (!m.host || !m.host->job_info || m.host->job_info(&job) != PLEXUS_SUCCESS) {
        services->set_error("the core gave no job information");
        return PLEXUS_DPM_ERR_INTERN;
    }
    m.nspace = job.nspace;
    m.rank = job.rank;
    *parent = nullptr;
    return meet_parent(m, world, parent);
}

int finalize(plexus_dpm_module_t *self) {
    PmixModule &m = self_of(self);
    // Ports the program left open: their markers go, so that connectors fail at once.
    while (!m.ports.empty()) close_port(self, m.ports.begin()->c_str());
    return PLEXUS_DPM_SUCCESS;
}

int disconnect(plexus_dpm_module_t *, plexus_coll_comm_t *) {
    // Nothing is held per inter-communicator: the core frees it and its endpoints.
    return PLEXUS_DPM_SUCCESS;
}

}  // namespace

// One module per process: the core hands back &base, which is g_module's.
PmixModule &self_of(plexus_dpm_module_t *) { return *g_module; }

int timeout_ms(const PmixModule &m) { return m.services->connect_timeout_ms(); }

void mark(const char *fmt, ...) {
    const PmixModule *m = g_module.get();
    if (!m || !sdk::timeline_wanted(m->host, m->self)) return;
    va_list ap;
    va_start(ap, fmt);
    sdk::log_timeline(m->host, m->self, m->nspace.c_str(), m->rank, fmt, ap);
    va_end(ap);
}

std::string unique_tag(PmixModule &m, const char *what) {
    return std::string("plexus.dpm.") + what + "." + m.nspace + "." + std::to_string(m.rank) + "." +
           std::to_string(m.serial++);
}

plexus_dpm_module_t *create_module(const plexus_host_api_t *host, const plexus_component_t *self) {
    g_module = std::make_unique<PmixModule>();
    PmixModule &m = *g_module;
    m.host = host;
    m.self = self;
    // publish/lookup/unpublish left NULL: the job manager's name service serves MPI_Publish_name.
    sdk::fill_dpm_module(&m.base, {.init = init, .finalize = finalize, .spawn = spawn, .open_port = open_port,
                                   .close_port = close_port, .accept = accept, .connect = connect, .join = join,
                                   .disconnect = disconnect});
    return &m.base;
}

void destroy_module() { g_module.reset(); }

}  // namespace plexus::dpm_pmix
