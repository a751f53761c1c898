// The btl_self component: its descriptor and open/close/query, written with the component SDK
// (the module's C entry points are the SDK's forwarders to SelfModule).
#include <memory>
#include <string>

#include <plexus/btl.h>
#include <plexus/sdk/btl_entry_points.hpp>
#include <plexus/sdk/btl_limits.hpp>
#include <plexus/sdk/descriptor.hpp>
#include <plexus/sdk/process_module.hpp>

#include "self_module.h"

using plexus::btl_self::SelfModule;

namespace {

constexpr int kPriority = 10;  // portable fallback band; exclusivity, not priority, ranks it first
plexus::sdk::ProcessModule<SelfModule> g_module;

struct Access {
    static SelfModule *module(plexus_btl_module_t *m) { return SelfModule::from(m); }
    static plexus_btl_endpoint_t *endpoint(plexus_btl_endpoint_t *ep) { return ep; }
};
// BTL 1.2: the SDK installs send_pack only when the module's matches; a typo must not silently
// cost typed messages their per-fragment packing.
static_assert(plexus::sdk::HasSendPack<Access>::value, "SelfModule::send_pack does not match btl.h's send_pack");
static_assert(plexus::sdk::HasHoldsProc<Access>::value, "SelfModule::holds_proc does not match btl.h's holds_proc");


struct Self {
    static constexpr plexus::sdk::Identity identity{
        "plexus-btl-self", "BSD-3-Clause", "loopback: messages and put/get within one process", {1, 0, 0}};

    static int open(const plexus_host_api_t *host, const plexus_component_t *self, plexus_reason_t *why) {
        const plexus::sdk::BtlLimits limits = plexus::sdk::btl_limits(host, self, SelfModule::kDefaultLimits);
        if (const std::string bad = plexus::sdk::check_btl_limits("self", limits); !bad.empty()) {
            host->log(self, PLEXUS_LOG_ERROR, "%s", bad.c_str());
            plexus::sdk::set_reason(why, "%s", bad.c_str());
            return PLEXUS_ERR_BAD_PARAM;
        }
        const int rc = g_module.open(why, [&] { return std::make_unique<SelfModule>(host, self, limits); });
        if (rc == PLEXUS_SUCCESS) plexus::sdk::install_btl_entry_points<Access>(g_module.get()->api());
        return rc;  // no fast channels: those stay NULL
    }
    static int close() { return g_module.close(); }
    static int query(const void *, plexus_query_result_t *result) { return g_module.query(result, kPriority); }
};

}  // namespace

PLEXUS_SDK_COMPONENT(btl, self, PLEXUS_BTL_MAJOR, PLEXUS_BTL_MINOR, Self);
