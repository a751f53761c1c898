// Two BTL modules wired to each other inside one process, so that two PML instances can talk
// without shared memory or a launcher. Knobs inject what real transports do: refusing sends
// (PLEXUS_ERR_AGAIN), delivering a fast channel's message before an older one, lacking or
// failing single copy (get and put), being a BTL 1.1 module without send_pack, and holding
// accepted messages for the peer (pending_to, BTL 1.4: a TCP connection under way), and still
// delivering under a deleted peer's id (holds_proc, BTL 1.5).
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstring>
#include <deque>
#include <vector>

#include <gtest/gtest.h>
#include <plexus/btl.h>

namespace plexus::test {

struct FakeBtl {
    plexus_btl_module_t module{};  // first: the PML sees &module
    FakeBtl *peer = nullptr;
    uint32_t self_id = 0, peer_id = 1;
    std::array<std::pair<plexus_btl_recv_fn_t, void *>, PLEXUS_BTL_TAG_COUNT> callbacks{};
    struct Msg {
        uint32_t src;
        uint8_t tag;
        std::vector<uint8_t> bytes;
    };
    std::deque<Msg> inbox;  // messages the peer sent to this side

    // Knobs.
    int refuse_every = 0;       // every n-th send returns PLEXUS_ERR_AGAIN
    int refuse_after = 0;       // every send after the n-th returns PLEXUS_ERR_AGAIN (a full ring)
    bool swap_pairs = false;    // deliver each pair of queued messages in reverse order
    bool newest_first = false;  // deliver the most recently queued message first
    int get_result = PLEXUS_SUCCESS;  // what get returns (PLEXUS_ERR_UNREACH: no single copy)
    int put_result = PLEXUS_SUCCESS;  // what put returns
    size_t held = 0;            // what pending_to says this side still holds for its peer
    std::vector<uint32_t> holding;  // ids holds_proc (BTL 1.5) says may still come up
    // Counters.
    int sends = 0, refused = 0, gets = 0, puts = 0;
    int packed_sends = 0;  // sends whose payload the caller packed (send_pack)
    int pack_calls = 0;    // calls of the caller's pack function

    explicit FakeBtl(size_t eager = 256, size_t max_send = 1024, size_t rdma_threshold = 4096) {
        module.struct_size = sizeof module;
        module.major = PLEXUS_BTL_MAJOR;
        module.minor = PLEXUS_BTL_MINOR;
        module.name = "fake";
        module.caps = PLEXUS_BTL_CAP_SEND | (rdma_threshold ? PLEXUS_BTL_CAP_GET | PLEXUS_BTL_CAP_PUT : 0u);
        module.exclusivity = PLEXUS_BTL_EXCLUSIVITY_NODE;
        module.eager_limit = eager;
        module.max_send_size = max_send;
        module.rdma_threshold = rdma_threshold;
        module.add_procs = add_procs;
        module.del_procs = [](plexus_btl_module_t *, size_t, plexus_btl_endpoint_t *const *) { return 0; };
        module.register_recv = register_recv;
        module.send = send;
        module.register_mem = register_mem;
        module.deregister_mem = [](plexus_btl_module_t *, plexus_btl_mem_handle_t *) { return 0; };
        module.get = get;
        module.put = put;
        module.pending = [](plexus_btl_module_t *m) { return self(m)->peer->inbox.size(); };
        module.send_pack = send_pack;
        module.pending_to = [](plexus_btl_module_t *m, plexus_btl_endpoint_t *) { return self(m)->held; };
        module.holds_proc = [](plexus_btl_module_t *m, uint32_t id) {
            const auto &h = self(m)->holding;
            return std::find(h.begin(), h.end(), id) != h.end() ? 1 : 0;
        };
    }

    // A module built against BTL 1.1: its struct ends before send_pack. The member is set to a
    // trap anyway, as stale memory past a short struct could be: a caller must not look there.
    void as_btl_1_1() {
        module.minor = 1;
        module.struct_size = offsetof(plexus_btl_module_t, send_pack);
        module.send_pack = [](plexus_btl_module_t *m, plexus_btl_endpoint_t *, uint8_t, const void *, size_t,
                              plexus_btl_pack_fn_t, void *, size_t, size_t) -> int {
            ADD_FAILURE() << "send_pack called on a BTL 1.1 module " << m->name;
            return PLEXUS_ERR_BAD_PARAM;
        };
    }

    static FakeBtl *self(plexus_btl_module_t *m) { return reinterpret_cast<FakeBtl *>(m); }

    static int add_procs(plexus_btl_module_t *m, size_t n, const plexus_btl_proc_t *procs, plexus_btl_endpoint_t **eps) {
        for (size_t i = 0; i < n; ++i)
            eps[i] = procs[i].id == self(m)->peer_id ? reinterpret_cast<plexus_btl_endpoint_t *>(m) : nullptr;
        return PLEXUS_SUCCESS;
    }
    static int register_recv(plexus_btl_module_t *m, uint8_t tag, plexus_btl_recv_fn_t fn, void *ctx) {
        self(m)->callbacks[tag] = {fn, ctx};
        return PLEXUS_SUCCESS;
    }
    static int send(plexus_btl_module_t *m, plexus_btl_endpoint_t *, uint8_t tag, const void *hdr, size_t hl,
                    const void *payload, size_t pl) {
        FakeBtl *b = self(m);
        if (hl + pl > m->max_send_size) return PLEXUS_ERR_BAD_PARAM;
        ++b->sends;
        if ((b->refuse_every && b->sends % b->refuse_every == 0) || (b->refuse_after && b->sends > b->refuse_after)) {
            ++b->refused;
            return PLEXUS_ERR_AGAIN;
        }
        Msg msg{b->self_id, tag, std::vector<uint8_t>(hl + pl)};
        std::memcpy(msg.bytes.data(), hdr, hl);
        if (pl) std::memcpy(msg.bytes.data() + hl, payload, pl);
        b->peer->inbox.push_back(std::move(msg));
        return PLEXUS_SUCCESS;
    }
    // The payload is packed by the caller straight into the message, in two pieces when it has
    // more than one byte (a BTL may call pack per piece of its buffer).
    static int send_pack(plexus_btl_module_t *m, plexus_btl_endpoint_t *, uint8_t tag, const void *hdr, size_t hl,
                         plexus_btl_pack_fn_t pack, void *ctx, size_t offset, size_t pl) {
        FakeBtl *b = self(m);
        if (hl + pl > m->max_send_size) return PLEXUS_ERR_BAD_PARAM;
        ++b->sends;
        if ((b->refuse_every && b->sends % b->refuse_every == 0) || (b->refuse_after && b->sends > b->refuse_after)) {
            ++b->refused;
            return PLEXUS_ERR_AGAIN;
        }
        Msg msg{b->self_id, tag, std::vector<uint8_t>(hl + pl)};
        std::memcpy(msg.bytes.data(), hdr, hl);
        const size_t first = pl / 2;
        if (first) pack(ctx, offset, first, msg.bytes.data() + hl), ++b->pack_calls;
        if (pl > first) pack(ctx, offset + first, pl - first, msg.bytes.data() + hl + first), ++b->pack_calls;
        ++b->packed_sends;
        b->peer->inbox.push_back(std::move(msg));
        return PLEXUS_SUCCESS;
    }
    static int register_mem(plexus_btl_module_t *, void *base, size_t len, plexus_btl_mem_handle_t *out) {
        out->len = sizeof(void *) + sizeof(size_t);
        std::memcpy(out->data, &base, sizeof base);
        std::memcpy(out->data + sizeof base, &len, sizeof len);
        return PLEXUS_SUCCESS;
    }
    static int get(plexus_btl_module_t *m, plexus_btl_endpoint_t *, void *local, size_t len,
                   const plexus_btl_mem_handle_t *remote, uint64_t addr, plexus_btl_rdma_done_fn_t done, void *ctx) {
        FakeBtl *b = self(m);
        ++b->gets;
        if (b->get_result != PLEXUS_SUCCESS) return b->get_result;
        char *base;
        size_t rlen;
        std::memcpy(&base, remote->data, sizeof base);
        std::memcpy(&rlen, remote->data + sizeof base, sizeof rlen);
        const char *from = reinterpret_cast<const char *>(static_cast<uintptr_t>(addr));
        if (from < base || from + len > base + rlen) return PLEXUS_ERR_BAD_PARAM;
        std::memcpy(local, from, len);
        done(ctx, PLEXUS_SUCCESS);
        return PLEXUS_SUCCESS;
    }
    // Writes into the peer's registered region at once, as btl_sm's CMA does.
    static int put(plexus_btl_module_t *m, plexus_btl_endpoint_t *, const void *local, size_t len,
                   const plexus_btl_mem_handle_t *remote, uint64_t addr, plexus_btl_rdma_done_fn_t done, void *ctx) {
        FakeBtl *b = self(m);
        ++b->puts;
        if (b->put_result != PLEXUS_SUCCESS) return b->put_result;
        char *base;
        size_t rlen;
        std::memcpy(&base, remote->data, sizeof base);
        std::memcpy(&rlen, remote->data + sizeof base, sizeof rlen);
        char *to = reinterpret_cast<char *>(static_cast<uintptr_t>(addr));
        if (to < base || to + len > base + rlen) return PLEXUS_ERR_BAD_PARAM;
        std::memcpy(to, local, len);
        done(ctx, PLEXUS_SUCCESS);
        return PLEXUS_SUCCESS;
    }
    // The progress callback: delivers what the peer sent.
    static int progress(void *ctx) {
        FakeBtl *b = static_cast<FakeBtl *>(ctx);
        if (b->inbox.empty()) return 0;
        if (b->swap_pairs && b->inbox.size() >= 2) std::swap(b->inbox[0], b->inbox[1]);
        Msg msg;
        if (b->newest_first) {
            msg = std::move(b->inbox.back());
            b->inbox.pop_back();
        } else {
            msg = std::move(b->inbox.front());
            b->inbox.pop_front();
        }
        auto [fn, cctx] = b->callbacks[msg.tag];
        if (fn) {
            plexus_btl_recv_desc_t d{msg.src, msg.tag, {}, msg.bytes.data(), msg.bytes.size()};
            fn(cctx, &d);
        }
        return 1;
    }

    static void connect(FakeBtl &a, FakeBtl &b) {
        a.peer = &b;
        b.peer = &a;
        a.self_id = 0;
        a.peer_id = 1;
        b.self_id = 1;
        b.peer_id = 0;
    }
};

}  // namespace plexus::test
