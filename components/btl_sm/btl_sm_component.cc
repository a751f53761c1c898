// The btl_sm component: its descriptor, parameters and open/close/query, written with the
// component SDK (the module's C entry points are the SDK's forwarders to the one SmModule of this
// process).
#include <memory>

#include <plexus/btl.h>
#include <plexus/sdk/btl_entry_points.hpp>
#include <plexus/sdk/btl_limits.hpp>
#include <plexus/sdk/descriptor.hpp>
#include <plexus/sdk/process_module.hpp>

#include "sm_module.h"
#include "sm_params.h"

using plexus::btl_sm::Endpoint;
using plexus::btl_sm::SmModule;
using plexus::btl_sm::SmParams;

namespace {

SmParams g_params;
plexus::sdk::ProcessModule<SmModule> g_module;
constexpr int kPriority = 40;  // generic accelerated band

struct Access {
    static SmModule *module(plexus_btl_module_t *m) { return SmModule::from(m); }
    static Endpoint *endpoint(plexus_btl_endpoint_t *ep) { return reinterpret_cast<Endpoint *>(ep); }
};
// BTL 1.2: the SDK installs send_pack only when the module's matches; a typo must not silently
// cost typed messages their per-fragment packing.
static_assert(plexus::sdk::HasSendPack<Access>::value, "SmModule::send_pack does not match btl.h's send_pack");
static_assert(plexus::sdk::HasHoldsProc<Access>::value, "SmModule::holds_proc does not match btl.h's holds_proc");


// Everything send accepted is already in the receiver's segment, which outlives this process;
// waiting for receivers to hand fragments back could wait forever on one that never receives.
size_t nothing_pending(plexus_btl_module_t *) { return 0; }

void install_entry_points(plexus_btl_module_t *m) {
    plexus::sdk::install_btl_entry_points<Access>(m);
    plexus::sdk::install_fast_channels<Access>(m);
    m->pending = nothing_pending;
    m->exclusivity = g_params.exclusivity;  // btl_sm_exclusivity, when the user set it
}

struct Sm {
    static constexpr plexus::sdk::Identity identity{
        "plexus-btl-sm", "BSD-3-Clause",
        "shared memory between processes of one node: FIFO, fast boxes, single copy by CMA", {1, 0, 0}};

    static int register_params(const plexus_host_api_t *host, const plexus_component_t *self) {
        return plexus::btl_sm::register_sm_params(host, self, &g_params);
    }
    static int open(const plexus_host_api_t *host, const plexus_component_t *self, plexus_reason_t *why) {
        const int rc = g_module.open(why, [&] { return std::make_unique<SmModule>(host, self, g_params); });
        if (rc == PLEXUS_SUCCESS) install_entry_points(g_module.get()->api());
        return rc;
    }
    static int close() { return g_module.close(); }
    static int query(const void *, plexus_query_result_t *result) { return g_module.query(result, kPriority); }
};

}  // namespace

PLEXUS_SDK_COMPONENT(btl, sm, PLEXUS_BTL_MAJOR, PLEXUS_BTL_MINOR, Sm);
