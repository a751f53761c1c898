// The osc_rdma component: its descriptor, parameters and query (a module per window). The paper's
// design (Barrett, Shipman, Lumsdaine): one-sided operations over the BTLs directly, by one of
// three protocols chosen per message; see README.md.
#include <plexus/component.h>
#include <plexus/osc.h>
#include <plexus/sdk/descriptor.hpp>
#include <plexus/sdk/host.hpp>

#include "rdma_module.h"
#include "rdma_params.h"

namespace {

constexpr int kPriority = 30;  // generic accelerated band: over any portable fallback
const plexus_host_api_t *g_host = nullptr;

int priority() {
    plexus_param_value_t v{};
    if (g_host && g_host->param_lookup("osc_rdma_priority", &v) == PLEXUS_SUCCESS && v.i >= 0 &&
        v.i <= PLEXUS_PRIORITY_MAX)
        return static_cast<int>(v.i);
    return kPriority;
}

struct Rdma {
    static constexpr plexus::sdk::Identity identity{
        "plexus-osc-rdma", "BSD-3-Clause",
        "one-sided communication over the BTLs: send/recv, buffered and rma protocols per message", {1, 0, 0}};

    static int register_params(const plexus_host_api_t *host, const plexus_component_t *self) {
        g_host = host;
        return plexus::osc_rdma::register_params(host, self);
    }

    static int open(const plexus_host_api_t *host, const plexus_component_t *, plexus_reason_t *) {
        g_host = host;
        return PLEXUS_SUCCESS;
    }

    static int close() { return PLEXUS_SUCCESS; }

    static int query(const void *scope_ptr, plexus_query_result_t *result) {
        const auto *scope = static_cast<const plexus_osc_scope_t *>(scope_ptr);
        if (!scope) return plexus::sdk::decline(result, "no window given to query");
        if (scope->struct_size < sizeof(plexus_osc_scope_t))
            return plexus::sdk::decline(result, "the core's window scope predates osc 1.1");
        if (scope->services && scope->flavor == PLEXUS_OSC_FLAVOR_DYNAMIC)
            return plexus::sdk::decline(result, "dynamic windows (MPI_Win_create_dynamic) are not served");
        auto *m = plexus::osc_rdma::create_module(*scope, plexus::osc_rdma::config(), g_host);
        if (!m) {
            plexus::sdk::set_reason(&result->why, "out of memory for the module");
            return PLEXUS_ERR_OUT_OF_RESOURCE;
        }
        return plexus::sdk::offer(result, priority(), &m->base);
    }
};

}  // namespace

PLEXUS_SDK_COMPONENT(osc, rdma, PLEXUS_OSC_MAJOR, PLEXUS_OSC_MINOR, Rdma);
