// The module: init (meeting the parents), finalize (ports closed, lingering endpoints given their
// last chance), its table, and what the operations share.
#include "ud_module.h"

#include <plexus/sdk/dpm_module.hpp>
#include <plexus/sdk/timeline.hpp>

#include <algorithm>
#include <cstdarg>
#include <cstddef>

namespace plexus::dpm_ud {
namespace {

std::unique_ptr<UdModule> g_module;

// How long finalize lets a lingering endpoint's last response be acknowledged.
constexpr int kFinalLingerMs = 2000;

int init(plexus_dpm_module_t *self, const plexus_dpm_services_t *services, plexus_coll_comm_t *world,
         plexus_coll_comm_t **parent) {
    UdModule &m = self_of(self);
    // own_cards / provide_cards are 1.2's: an older core cannot carry cards for us.
    if (!services || services->major != PLEXUS_DPM_SERVICES_MAJOR || services->minor < 2 ||
        services->struct_size < offsetof(plexus_dpm_services_t, provide_cards) + sizeof services->provide_cards)
        return PLEXUS_DPM_ERR_INTERN;
    m.services = services;
    plexus_job_info_t job{};
    job.struct_size = sizeof job;
    if (!m.host->job_info || m.host->job_info(&job) != PLEXUS_SUCCESS) {
        services->set_error("the core gave no job information");
        return PLEXUS_DPM_ERR_INTERN;
    }
    m.nspace = job.nspace;
    m.rank = job.rank;
    *parent = nullptr;
    return meet_parent(m, world, parent);
}

int finalize(plexus_dpm_module_t *self) {
    UdModule &m = self_of(self);
    while (!m.ports.empty()) close_port(self, m.ports.begin()->first.c_str());
    auto all_idle = [](void *ctx) {
        UdModule &mod = *static_cast<UdModule *>(ctx);
        mod.reap();
        return mod.lingering.empty() ? 1 : 0;
    };
    if (!m.lingering.empty()) m.host->progress_wait(all_idle, &m, kFinalLingerMs);
    m.lingering.clear();
    return PLEXUS_DPM_SUCCESS;
}

int disconnect(plexus_dpm_module_t *self, plexus_coll_comm_t *) {
    // Nothing is held per inter-communicator: the core frees it and its endpoints. The spawn's
    // endpoint has heard its last acknowledgement by now (the children returned from MPI_Init
    // and talked to us): close it, so that a loop of spawns holds none between cycles.
    self_of(self).reap();
    return PLEXUS_DPM_SUCCESS;
}

}  // namespace

MeetingContext UdModule::context(int fail_class) const {
    MeetingContext c;
    c.s = services;
    c.host = host;
    c.self = self;
    c.mode = static_cast<Mode>(params->mode);
    c.auto_threshold = static_cast<int>(params->auto_threshold);
    c.timeout_ms = services->connect_timeout_ms();
    c.fail_class = fail_class;
    return c;
}

void UdModule::reap() {
    lingering.erase(std::remove_if(lingering.begin(), lingering.end(), [](const std::unique_ptr<Endpoint> &e) {
                        return e->idle();
                    }),
                    lingering.end());
}

void UdModule::retire(std::unique_ptr<Endpoint> ep) {
    if (ep && !ep->idle()) lingering.push_back(std::move(ep));
}

std::string UdModule::interface() const { return params->interface ? params->interface : ""; }

void mark(const char *fmt, ...) {
    const UdModule *m = g_module.get();
    if (!m || !sdk::timeline_wanted(m->host, m->self)) return;
    va_list ap;
    va_start(ap, fmt);
    sdk::log_timeline(m->host, m->self, m->nspace.c_str(), m->rank, fmt, ap);
    va_end(ap);
}

uint32_t starter_id() {
    uint32_t id = 0;
    while (id == 0 || id == PLEXUS_DGRAM_SENDER_RANK) random_bytes(&id, sizeof id);
    return id;
}

uint64_t random_session() {
    uint64_t s = 0;
    random_bytes(&s, sizeof s);
    return s;
}

UdModule &self_of(plexus_dpm_module_t *) { return *g_module; }

plexus_dpm_module_t *create_module(const plexus_host_api_t *host, const plexus_component_t *self,
                                   const UdParams *params) {
    g_module = std::make_unique<UdModule>();
    UdModule &m = *g_module;
    m.host = host;
    m.self = self;
    m.params = params;
    // publish/lookup/unpublish left NULL: the job manager's name service serves MPI_Publish_name.
    sdk::fill_dpm_module(&m.base, {.init = init, .finalize = finalize, .spawn = spawn, .open_port = open_port,
                                   .close_port = close_port, .accept = accept, .connect = connect, .join = join,
                                   .disconnect = disconnect});
    return &m.base;
}

void destroy_module() { g_module.reset(); }

}  // namespace plexus::dpm_ud
