// The C entry points of a BTL module struct (btl.h), forwarded to a C++ module object. Access
// names how to get from the C handles to the C++ objects:
//
//   struct Access {
//       static MyModule *module(plexus_btl_module_t *m);      // the object behind m
//       static MyEndpoint *endpoint(plexus_btl_endpoint_t *); // what MyModule's methods take
//   };
//
// and the module has add_procs, del_procs, register_recv, send, register_mem, deregister_mem,
// rdma (get and put, with a bool write), taking the C arguments after m; pending, send_pack
// (BTL 1.2), pending_to (BTL 1.4) and holds_proc (BTL 1.5, `bool holds_proc(uint32_t id) const`)
// are installed when the module has them. Fast channels are installed by
// install_fast_channels when the module has them. A component sets any entry point it forwards
// differently after these.
#pragma once

#include <cstddef>
#include <type_traits>
#include <utility>

#include <plexus/btl.h>

namespace plexus::sdk {

template <class Access, class = void>
struct HasPending : std::false_type {};
template <class Access>
struct HasPending<Access, std::void_t<decltype(Access::module(nullptr)->pending())>> : std::true_type {};

template <class Access, class = void>
struct HasSendPack : std::false_type {};
#ifdef PLEXUS_BTL_HAS_SEND_PACK  // btl.h 1.2
template <class Access>
struct HasSendPack<Access, std::void_t<decltype(Access::module(nullptr)->send_pack(
                               Access::endpoint(nullptr), uint8_t{}, nullptr, size_t{}, plexus_btl_pack_fn_t{},
                               nullptr, size_t{}, size_t{}))>> : std::true_type {};
#endif

template <class Access, class = void>
struct HasPendingTo : std::false_type {};
#ifdef PLEXUS_BTL_HAS_PENDING_TO  // btl.h 1.4
template <class Access>
struct HasPendingTo<Access, std::void_t<decltype(Access::module(nullptr)->pending_to(Access::endpoint(nullptr)))>>
    : std::true_type {};
#endif

template <class Access, class = void>
struct HasHoldsProc : std::false_type {};
#ifdef PLEXUS_BTL_HAS_HOLDS_PROC  // btl.h 1.5
template <class Access>
struct HasHoldsProc<Access, std::void_t<decltype(bool{Access::module(nullptr)->holds_proc(uint32_t{})})>>
    : std::true_type {};
#endif

template <class Access>
struct BtlEntryPoints {
    static int add_procs(plexus_btl_module_t *m, size_t n, const plexus_btl_proc_t *procs,
                         plexus_btl_endpoint_t **eps) {
        return Access::module(m)->add_procs(n, procs, eps);
    }
    static int del_procs(plexus_btl_module_t *m, size_t n, plexus_btl_endpoint_t *const *eps) {
        return Access::module(m)->del_procs(n, eps);
    }
    static int register_recv(plexus_btl_module_t *m, uint8_t tag, plexus_btl_recv_fn_t fn, void *ctx) {
        return Access::module(m)->register_recv(tag, fn, ctx);
    }
    static int send(plexus_btl_module_t *m, plexus_btl_endpoint_t *ep, uint8_t tag, const void *hdr,
                    size_t hlen, const void *payload, size_t plen) {
        if (!ep) return PLEXUS_ERR_BAD_PARAM;
        return Access::module(m)->send(Access::endpoint(ep), tag, hdr, hlen, payload, plen);
    }
    static int register_mem(plexus_btl_module_t *m, void *base, size_t len, plexus_btl_mem_handle_t *out) {
        return Access::module(m)->register_mem(base, len, out);
    }
    static int deregister_mem(plexus_btl_module_t *m, plexus_btl_mem_handle_t *handle) {
        return Access::module(m)->deregister_mem(handle);
    }
    static int get(plexus_btl_module_t *m, plexus_btl_endpoint_t *ep, void *local, size_t len,
                   const plexus_btl_mem_handle_t *remote, uint64_t remote_addr, plexus_btl_rdma_done_fn_t done,
                   void *ctx) {
        if (!ep) return PLEXUS_ERR_BAD_PARAM;
        return Access::module(m)->rdma(Access::endpoint(ep), local, len, remote, remote_addr, done, ctx, false);
    }
    static int put(plexus_btl_module_t *m, plexus_btl_endpoint_t *ep, const void *local, size_t len,
                   const plexus_btl_mem_handle_t *remote, uint64_t remote_addr, plexus_btl_rdma_done_fn_t done,
                   void *ctx) {
        if (!ep) return PLEXUS_ERR_BAD_PARAM;
        // rdma() only reads local on a put; get and put share its (non-const) signature.
        return Access::module(m)->rdma(Access::endpoint(ep), const_cast<void *>(local), len, remote, remote_addr,
                                       done, ctx, true);
    }
#ifdef PLEXUS_BTL_HAS_SEND_PACK
    static int send_pack(plexus_btl_module_t *m, plexus_btl_endpoint_t *ep, uint8_t tag, const void *hdr,
                         size_t hlen, plexus_btl_pack_fn_t pack, void *pack_ctx, size_t offset, size_t plen) {
        if (!ep) return PLEXUS_ERR_BAD_PARAM;
        return Access::module(m)->send_pack(Access::endpoint(ep), tag, hdr, hlen, pack, pack_ctx, offset, plen);
    }
#endif
    static size_t pending(plexus_btl_module_t *m) { return Access::module(m)->pending(); }
#ifdef PLEXUS_BTL_HAS_PENDING_TO
    static size_t pending_to(plexus_btl_module_t *m, plexus_btl_endpoint_t *ep) {
        return ep ? Access::module(m)->pending_to(Access::endpoint(ep)) : 0;
    }
#endif
#ifdef PLEXUS_BTL_HAS_HOLDS_PROC
    static int holds_proc(plexus_btl_module_t *m, uint32_t id) { return Access::module(m)->holds_proc(id) ? 1 : 0; }
#endif
    static int fast_channel(plexus_btl_module_t *m, plexus_btl_endpoint_t *ep, plexus_btl_fast_op_t op) {
        if (!ep) return PLEXUS_ERR_BAD_PARAM;
        return Access::module(m)->fast_channel(Access::endpoint(ep), op);
    }
    static plexus_btl_fast_state_t fast_channel_state(plexus_btl_module_t *m, plexus_btl_endpoint_t *ep) {
        if (!ep) return PLEXUS_BTL_FAST_NONE;
        return Access::module(m)->fast_channel_state(Access::endpoint(ep));
    }
    static int fast_channel_stats(plexus_btl_module_t *m, plexus_btl_fast_stats_t *out) {
        return Access::module(m)->fast_channel_stats(out);
    }
};

// Sets the data-path entry points of m (fast channels stay as they are).
template <class Access>
void install_btl_entry_points(plexus_btl_module_t *m) {
    using E = BtlEntryPoints<Access>;
    m->add_procs = E::add_procs;
    m->del_procs = E::del_procs;
    m->register_recv = E::register_recv;
    m->send = E::send;
    m->register_mem = E::register_mem;
    m->deregister_mem = E::deregister_mem;
    m->get = E::get;
    m->put = E::put;
    if constexpr (HasPending<Access>::value) m->pending = E::pending;
#ifdef PLEXUS_BTL_HAS_SEND_PACK
    if constexpr (HasSendPack<Access>::value) m->send_pack = E::send_pack;
#endif
#ifdef PLEXUS_BTL_HAS_PENDING_TO
    if constexpr (HasPendingTo<Access>::value) m->pending_to = E::pending_to;
#endif
#ifdef PLEXUS_BTL_HAS_HOLDS_PROC
    if constexpr (HasHoldsProc<Access>::value) m->holds_proc = E::holds_proc;
#endif
}

// For modules with fast channels (PLEXUS_BTL_CAP_FAST_CHANNELS).
template <class Access>
void install_fast_channels(plexus_btl_module_t *m) {
    using E = BtlEntryPoints<Access>;
    m->fast_channel = E::fast_channel;
    m->fast_channel_state = E::fast_channel_state;
    m->fast_channel_stats = E::fast_channel_stats;
}

}  // namespace plexus::sdk
