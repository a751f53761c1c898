// The osc_sm component: windows whose members all share this node, over MPI_Alloc_mem memory,
// served by direct load/store into every member's memory mapped here and synchronisation by
// atomics in shared control blocks (no target involvement, so passive target completes while
// the target computes). Ranked above osc_rdma; a window it cannot serve goes there. README.md.
#include <cstddef>

#include <plexus/component.h>
#include <plexus/osc.h>
#include <plexus/sdk/descriptor.hpp>
#include <plexus/sdk/host.hpp>
#include <plexus/shm.h>

#include "sm_module.h"

namespace {

constexpr int kPriority = 40;  // generic accelerated band, above osc_rdma's 30
const plexus_host_api_t *g_host = nullptr;
const plexus_component_t *g_self = nullptr;

int priority() {
    plexus_param_value_t v{};
    if (g_host && g_host->param_lookup("osc_sm_priority", &v) == PLEXUS_SUCCESS && v.i >= 0 && v.i <= PLEXUS_PRIORITY_MAX)
        return static_cast<int>(v.i);
    return kPriority;
}

// The shm services of 1.1, where peer_map lives.
bool has_peer_map(const plexus_host_api_t *host) {
    if (!PLEXUS_HOST_HAS(host, shm)) return false;
    const plexus_shm_services_t *s = host->shm;
    return s->major == PLEXUS_SHM_MAJOR &&
           s->struct_size >= offsetof(plexus_shm_services_t, peer_unmap) + sizeof s->peer_unmap && s->peer_map &&
           s->peer_unmap;
}

struct Sm {
    static constexpr plexus::sdk::Identity identity{
        "plexus-osc-sm", "BSD-3-Clause",
        "one-sided communication by load/store in shared memory, for windows within one node", {1, 0, 0}};

    static int open(const plexus_host_api_t *host, const plexus_component_t *self, plexus_reason_t *why) {
        g_host = host;
        g_self = self;
        if (!PLEXUS_HOST_HAS(host, progress_wait) || !has_peer_map(host)) {
            plexus::sdk::set_reason(why, "the core offers no shm peer_map (host API 1.3, shm services 1.1) or no progress_wait");
            return PLEXUS_ERR_NOT_AVAILABLE;
        }
        return PLEXUS_SUCCESS;
    }

    static int close() { return PLEXUS_SUCCESS; }

    // Only what every member answers alike is decided here (members ask in the same order and
    // must agree on the candidate); whether each member's memory can be mapped is win_init's
    // collective question.
    static int query(const void *scope_ptr, plexus_query_result_t *result) {
        const auto *scope = static_cast<const plexus_osc_scope_t *>(scope_ptr);
        if (!scope) return plexus::sdk::decline(result, "no window given to query");
        if (scope->struct_size < sizeof(plexus_osc_scope_t))
            return plexus::sdk::decline(result, "the core's window scope predates osc 1.1");
        if (scope->services) {
            if (scope->flavor == PLEXUS_OSC_FLAVOR_DYNAMIC)
                return plexus::sdk::decline(result, "dynamic windows (MPI_Win_create_dynamic) are not served");
            if (scope->local_peers != scope->comm_size)
                return plexus::sdk::decline(result, "only %d of the window's %d members are on this node",
                                            scope->local_peers, scope->comm_size);
            plexus_reason_t why{};
            if (!g_host->shm->fd_passing_available(&why))
                return plexus::sdk::decline(result, "peers cannot map each other's memory here: %s", why.text);
        }
        auto *m = plexus::osc_sm::create_module(*scope, g_host, g_self);
        if (!m) {
            plexus::sdk::set_reason(&result->why, "out of memory for the module");
            return PLEXUS_ERR_OUT_OF_RESOURCE;
        }
        return plexus::sdk::offer(result, priority(), &m->base);
    }
};

}  // namespace

PLEXUS_SDK_COMPONENT(osc, sm, PLEXUS_OSC_MAJOR, PLEXUS_OSC_MINOR, Sm);
