// The btl_openib component: its descriptor, parameters and open/close/query, written with the
// component SDK (the module's C entry points are the SDK's forwarders to the one OpenibModule of
// this process). Declines in open() with the reason where libibverbs finds no usable port.
#include <memory>

#include <plexus/btl.h>
#include <plexus/sdk/btl_entry_points.hpp>
#include <plexus/sdk/descriptor.hpp>
#include <plexus/sdk/process_module.hpp>

#include "openib_module.h"
#include "openib_params.h"

using plexus::btl_openib::Endpoint;
using plexus::btl_openib::OpenibModule;
using plexus::btl_openib::OpenibParams;

namespace {

OpenibParams g_params;
plexus::sdk::ProcessModule<OpenibModule> g_module;
constexpr int kPriority = 60;  // hardware-specific band

struct Access {
    static OpenibModule *module(plexus_btl_module_t *m) { return OpenibModule::from(m); }
    static Endpoint *endpoint(plexus_btl_endpoint_t *ep) { return reinterpret_cast<Endpoint *>(ep); }
};
static_assert(plexus::sdk::HasSendPack<Access>::value, "OpenibModule::send_pack does not match btl.h's send_pack");
static_assert(plexus::sdk::HasHoldsProc<Access>::value, "OpenibModule::holds_proc does not match btl.h's holds_proc");

void install_entry_points(plexus_btl_module_t *m) {
    plexus::sdk::install_btl_entry_points<Access>(m);
    if (m->caps & PLEXUS_BTL_CAP_FAST_CHANNELS) plexus::sdk::install_fast_channels<Access>(m);
}

struct Openib {
    static constexpr plexus::sdk::Identity identity{
        "plexus-btl-openib", "BSD-3-Clause",
        "InfiniBand/RoCE verbs (rdma-core): RC queue pairs on demand, credit flow control, eager RDMA "
        "channels, RDMA read/write",
        {1, 0, 0}};

    static int register_params(const plexus_host_api_t *host, const plexus_component_t *self) {
        return plexus::btl_openib::register_openib_params(host, self, &g_params);
    }
    static int open(const plexus_host_api_t *host, const plexus_component_t *self, plexus_reason_t *why) {
        const int rc = g_module.open(why, [&] { return std::make_unique<OpenibModule>(host, self, g_params); });
        if (rc == PLEXUS_SUCCESS) install_entry_points(g_module.get()->api());
        return rc;
    }
    static int close() { return g_module.close(); }
    static int query(const void *, plexus_query_result_t *result) { return g_module.query(result, kPriority); }
};

}  // namespace

PLEXUS_SDK_COMPONENT(btl, openib, PLEXUS_BTL_MAJOR, PLEXUS_BTL_MINOR, Openib);
