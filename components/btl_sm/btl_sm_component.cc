// The btl_sm component: its descriptor, parameters, open/close/query, and the C face of the
// module (each entry point forwards to the one SmModule of this process).
#include <cstdio>
#include <memory>
#include <new>

#include <plexus/btl.h>
#include <plexus/component.h>

#include "sm_module.h"
#include "sm_params.h"

using plexus::btl_sm::Endpoint;
using plexus::btl_sm::SmModule;
using plexus::btl_sm::SmParams;

PLEXUS_DECLARE_COMPONENT(btl, sm);

namespace {

SmParams g_params;
std::unique_ptr<SmModule> g_module;
constexpr int kPriority = 40;  // generic accelerated band

Endpoint *endpoint(plexus_btl_endpoint_t *ep) { return reinterpret_cast<Endpoint *>(ep); }

int api_add_procs(plexus_btl_module_t *m, size_t n, const plexus_btl_proc_t *procs, plexus_btl_endpoint_t **eps) {
    return SmModule::from(m)->add_procs(n, procs, eps);
}
int api_del_procs(plexus_btl_module_t *m, size_t n, plexus_btl_endpoint_t *const *eps) {
    return SmModule::from(m)->del_procs(n, eps);
}
int api_register_recv(plexus_btl_module_t *m, uint8_t tag, plexus_btl_recv_fn_t fn, void *ctx) {
    return SmModule::from(m)->register_recv(tag, fn, ctx);
}
int api_send(plexus_btl_module_t *m, plexus_btl_endpoint_t *ep, uint8_t tag, const void *hdr, size_t hlen,
         const void *payload, size_t plen) {
    if (!ep) return PLEXUS_ERR_BAD_PARAM;
    return SmModule::from(m)->send(endpoint(ep), tag, hdr, hlen, payload, plen);
}
int api_register_mem(plexus_btl_module_t *m, void *base, size_t len, plexus_btl_mem_handle_t *out) {
    return SmModule::from(m)->register_mem(base, len, out);
}
int api_deregister_mem(plexus_btl_module_t *m, plexus_btl_mem_handle_t *handle) {
    return SmModule::from(m)->deregister_mem(handle);
}
int api_get(plexus_btl_module_t *m, plexus_btl_endpoint_t *ep, void *local, size_t len,
        const plexus_btl_mem_handle_t *remote, uint64_t remote_addr, plexus_btl_rdma_done_fn_t done, void *ctx) {
    return SmModule::from(m)->rdma(endpoint(ep), local, len, remote, remote_addr, done, ctx, false);
}
int api_put(plexus_btl_module_t *m, plexus_btl_endpoint_t *ep, const void *local, size_t len,
        const plexus_btl_mem_handle_t *remote, uint64_t remote_addr, plexus_btl_rdma_done_fn_t done, void *ctx) {
    // process_vm_writev only reads the local buffer; the shared signature is not const.
    return SmModule::from(m)->rdma(endpoint(ep), const_cast<void *>(local), len, remote, remote_addr, done, ctx,
                                   true);
}
int api_fast_channel(plexus_btl_module_t *m, plexus_btl_endpoint_t *ep, plexus_btl_fast_op_t op) {
    return SmModule::from(m)->fast_channel(endpoint(ep), op);
}
plexus_btl_fast_state_t api_fast_channel_state(plexus_btl_module_t *m, plexus_btl_endpoint_t *ep) {
    return SmModule::from(m)->fast_channel_state(endpoint(ep));
}
int api_fast_channel_stats(plexus_btl_module_t *m, plexus_btl_fast_stats_t *out) {
    return SmModule::from(m)->fast_channel_stats(out);
}
// Everything send accepted is already in the receiver's segment, which outlives this process;
// waiting for receivers to hand fragments back could wait forever on one that never receives.
size_t api_pending(plexus_btl_module_t *) { return 0; }

void install_entry_points(plexus_btl_module_t *m) {
    m->add_procs = api_add_procs;
    m->del_procs = api_del_procs;
    m->register_recv = api_register_recv;
    m->send = api_send;
    m->register_mem = api_register_mem;
    m->deregister_mem = api_deregister_mem;
    m->get = api_get;
    m->put = api_put;
    m->fast_channel = api_fast_channel;
    m->fast_channel_state = api_fast_channel_state;
    m->fast_channel_stats = api_fast_channel_stats;
    m->pending = api_pending;
}

int sm_register(const plexus_host_api_t *host, const plexus_component_t *self) {
    return plexus::btl_sm::register_sm_params(host, self, &g_params);
}

int sm_open(const plexus_host_api_t *host, plexus_reason_t *why) {
    g_module.reset();
    try {
        auto module = std::make_unique<SmModule>(host, &PLEXUS_COMPONENT_SYMBOL(btl, sm), g_params);
        if (int rc = module->open(why); rc != PLEXUS_SUCCESS) return rc;
        install_entry_points(module->api());
        g_module = std::move(module);
        return PLEXUS_SUCCESS;
    } catch (const std::bad_alloc &) {
        std::snprintf(why->text, sizeof why->text, "out of memory while opening");
        return PLEXUS_ERR_OUT_OF_RESOURCE;
    }
}

int sm_close() {
    g_module.reset();
    return PLEXUS_SUCCESS;
}

int sm_query(const void *, plexus_query_result_t *result) {
    if (!g_module) {
        std::snprintf(result->why.text, sizeof result->why.text, "not opened");
        return PLEXUS_ERR_NOT_AVAILABLE;
    }
    result->priority = kPriority;
    result->module = g_module->api();
    return PLEXUS_SUCCESS;
}

}  // namespace

PLEXUS_DECLARE_COMPONENT(btl, sm) = {
    PLEXUS_COMPONENT_INIT(btl, PLEXUS_BTL_MAJOR, PLEXUS_BTL_MINOR, sm, 1, 0, 0),
    "plexus-btl-sm", "BSD-3-Clause",
    "shared memory between processes of one node: FIFO, fast boxes, single copy by CMA",
    sm_register, sm_open, sm_close, sm_query};
