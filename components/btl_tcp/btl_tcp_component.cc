// The btl_tcp component: its descriptor, parameters and open/close/query, written with the
// component SDK (the module's C entry points are the SDK's forwarders to the one TcpModule of this
// process; it offers no put/get, so the PML's rendezvous goes by fragments).
#include <memory>

#include <plexus/btl.h>
#include <plexus/sdk/btl_entry_points.hpp>
#include <plexus/sdk/descriptor.hpp>
#include <plexus/sdk/process_module.hpp>

#include "tcp_module.h"
#include "tcp_params.h"

using plexus::btl_tcp::Endpoint;
using plexus::btl_tcp::TcpModule;
using plexus::btl_tcp::TcpParams;

namespace {

TcpParams g_params;
plexus::sdk::ProcessModule<TcpModule> g_module;
constexpr int kPriority = 10;  // portable fallback band

struct Access {
    static TcpModule *module(plexus_btl_module_t *m) { return TcpModule::from(m); }
    static Endpoint *endpoint(plexus_btl_endpoint_t *ep) { return reinterpret_cast<Endpoint *>(ep); }
};
static_assert(plexus::sdk::HasSendPack<Access>::value, "TcpModule::send_pack does not match btl.h's send_pack");
static_assert(plexus::sdk::HasHoldsProc<Access>::value, "TcpModule::holds_proc does not match btl.h's holds_proc");

// Only the send side: get, put and memory registration stay NULL (no CAP_GET/CAP_PUT).
void install_entry_points(plexus_btl_module_t *m) {
    using E = plexus::sdk::BtlEntryPoints<Access>;
    m->add_procs = E::add_procs;
    m->del_procs = E::del_procs;
    m->register_recv = E::register_recv;
    m->send = E::send;
    m->send_pack = E::send_pack;
    m->pending = E::pending;
    m->pending_to = E::pending_to;
    m->holds_proc = E::holds_proc;
}

struct Tcp {
    static constexpr plexus::sdk::Identity identity{
        "plexus-btl-tcp", "BSD-3-Clause",
        "TCP/IPv4 between hosts: non-blocking sockets on the progress engine, connections proven by the job secret (between jobs: their meeting's)",
        {1, 0, 0}};

    static int register_params(const plexus_host_api_t *host, const plexus_component_t *self) {
        return plexus::btl_tcp::register_tcp_params(host, self, &g_params);
    }
    static int open(const plexus_host_api_t *host, const plexus_component_t *self, plexus_reason_t *why) {
        const int rc = g_module.open(why, [&] { return std::make_unique<TcpModule>(host, self, g_params); });
        if (rc == PLEXUS_SUCCESS) install_entry_points(g_module.get()->api());
        return rc;
    }
    static int close() { return g_module.close(); }
    static int query(const void *, plexus_query_result_t *result) { return g_module.query(result, kPriority); }
};

}  // namespace

PLEXUS_SDK_COMPONENT(btl, tcp, PLEXUS_BTL_MAJOR, PLEXUS_BTL_MINOR, Tcp);
