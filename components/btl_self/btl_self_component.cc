// The btl_self component: its descriptor, open/close/query, and the C face of the module.
#include <cstdio>
#include <memory>
#include <new>

#include <plexus/btl.h>
#include <plexus/component.h>

#include "self_module.h"

using plexus::btl_self::SelfModule;

PLEXUS_DECLARE_COMPONENT(btl, self);

namespace {

std::unique_ptr<SelfModule> g_module;
constexpr int kPriority = 10;  // portable fallback band; exclusivity, not priority, ranks it first

int api_add_procs(plexus_btl_module_t *m, size_t n, const plexus_btl_proc_t *procs, plexus_btl_endpoint_t **eps) {
    return SelfModule::from(m)->add_procs(n, procs, eps);
}
int api_del_procs(plexus_btl_module_t *m, size_t n, plexus_btl_endpoint_t *const *eps) {
    return SelfModule::from(m)->del_procs(n, eps);
}
int api_register_recv(plexus_btl_module_t *m, uint8_t tag, plexus_btl_recv_fn_t fn, void *ctx) {
    return SelfModule::from(m)->register_recv(tag, fn, ctx);
}
int api_send(plexus_btl_module_t *m, plexus_btl_endpoint_t *ep, uint8_t tag, const void *hdr, size_t hlen,
             const void *payload, size_t plen) {
    return SelfModule::from(m)->send(ep, tag, hdr, hlen, payload, plen);
}
int api_register_mem(plexus_btl_module_t *m, void *base, size_t len, plexus_btl_mem_handle_t *out) {
    return SelfModule::from(m)->register_mem(base, len, out);
}
int api_deregister_mem(plexus_btl_module_t *m, plexus_btl_mem_handle_t *handle) {
    return SelfModule::from(m)->deregister_mem(handle);
}
int api_get(plexus_btl_module_t *m, plexus_btl_endpoint_t *ep, void *local, size_t len,
            const plexus_btl_mem_handle_t *remote, uint64_t remote_addr, plexus_btl_rdma_done_fn_t done,
            void *ctx) {
    return SelfModule::from(m)->rdma(ep, local, len, remote, remote_addr, done, ctx, false);
}
int api_put(plexus_btl_module_t *m, plexus_btl_endpoint_t *ep, const void *local, size_t len,
            const plexus_btl_mem_handle_t *remote, uint64_t remote_addr, plexus_btl_rdma_done_fn_t done,
            void *ctx) {
    // Only read on a put; the shared signature of rdma() is not const.
    return SelfModule::from(m)->rdma(ep, const_cast<void *>(local), len, remote, remote_addr, done, ctx, true);
}
size_t api_pending(plexus_btl_module_t *m) { return SelfModule::from(m)->pending(); }

int self_open(const plexus_host_api_t *host, plexus_reason_t *why) {
    g_module.reset();
    try {
        auto module = std::make_unique<SelfModule>(host, &PLEXUS_COMPONENT_SYMBOL(btl, self));
        if (int rc = module->open(why); rc != PLEXUS_SUCCESS) return rc;
        plexus_btl_module_t *m = module->api();
        m->add_procs = api_add_procs;
        m->del_procs = api_del_procs;
        m->register_recv = api_register_recv;
        m->send = api_send;
        m->register_mem = api_register_mem;
        m->deregister_mem = api_deregister_mem;
        m->get = api_get;
        m->put = api_put;
        m->pending = api_pending;  // no fast channels: those stay NULL
        g_module = std::move(module);
        return PLEXUS_SUCCESS;
    } catch (const std::bad_alloc &) {
        std::snprintf(why->text, sizeof why->text, "out of memory while opening");
        return PLEXUS_ERR_OUT_OF_RESOURCE;
    }
}

int self_close() {
    g_module.reset();
    return PLEXUS_SUCCESS;
}

int self_query(const void *, plexus_query_result_t *result) {
    if (!g_module) {
        std::snprintf(result->why.text, sizeof result->why.text, "not opened");
        return PLEXUS_ERR_NOT_AVAILABLE;
    }
    result->priority = kPriority;
    result->module = g_module->api();
    return PLEXUS_SUCCESS;
}

}  // namespace

PLEXUS_DECLARE_COMPONENT(btl, self) = {
    PLEXUS_COMPONENT_INIT(btl, PLEXUS_BTL_MAJOR, PLEXUS_BTL_MINOR, self, 1, 0, 0),
    "plexus-btl-self", "BSD-3-Clause", "loopback: messages and put/get within one process",
    nullptr, self_open, self_close, self_query};
