// The btl_openib module of one process: its HCA port (device context, protection domain, one
// completion queue), the registered send buffers, the registration cache, the connect endpoint
// (the core's reliable datagrams) and its peers; the data path: sends through pre-posted receive
// buffers under credit flow control, eager RDMA channels, RDMA write and read for put and get.
// One per process, made by open() and destroyed by close(); single-threaded (FUNNELED); driven
// by the progress engine.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <plexus/btl.h>
#include <plexus/dgram.h>
#include <plexus/sdk/btl_module.hpp>

#include "openib_endpoint.h"
#include "openib_params.h"
#include "port_select.h"
#include "reg_cache.h"
#include "verbs_raii.h"
#include "wire.h"

namespace plexus::btl_openib {

// What put/get's remote handle carries (plexus_btl_mem_handle_t.data).
struct MemHandle {
    uint64_t base;
    uint64_t len;
    uint32_t rkey;
    uint32_t reserved;
    uint64_t token;  // the registering process's own: which registration deregister_mem ends
};
static_assert(sizeof(MemHandle) <= PLEXUS_BTL_MEM_HANDLE_MAX, "must fit the BTL's handle");

// The upper layer's bytes of one send: contiguous (send) or packed on demand (send_pack).
struct Payload {
    const void *hdr;
    size_t hlen;
    const void *data;
    size_t dlen;
    plexus_btl_pack_fn_t pack;
    void *pack_ctx;
    size_t offset;

    size_t len() const { return hlen + dlen; }
    void write_to(uint8_t *dst) const;
};

class OpenibModule {
public:
    OpenibModule(const plexus_host_api_t *host, const plexus_component_t *self, const OpenibParams &params);
    ~OpenibModule();
    OpenibModule(const OpenibModule &) = delete;
    OpenibModule &operator=(const OpenibModule &) = delete;

    // Devices, port, PD, CQ, buffers, connect endpoint, card. PLEXUS_ERR_NOT_AVAILABLE / BAD_PARAM + why.
    int open(plexus_reason_t *why);
    plexus_btl_module_t *api() { return &handle_.api; }
    static OpenibModule *from(plexus_btl_module_t *m) { return sdk::BtlModuleHandle<OpenibModule>::owner(m); }

    int add_procs(size_t n, const plexus_btl_proc_t *procs, plexus_btl_endpoint_t **eps);
    int del_procs(size_t n, plexus_btl_endpoint_t *const *eps);
    // BTL 1.5: never once deleted: a deleted peer's messages are kept (deliver) and handed up
    // only under the id add_procs gives its process again.
    bool holds_proc(uint32_t) const { return false; }
    int register_recv(uint8_t tag, plexus_btl_recv_fn_t fn, void *ctx);
    int send(Endpoint *ep, uint8_t tag, const void *hdr, size_t hlen, const void *payload, size_t plen);
    int send_pack(Endpoint *ep, uint8_t tag, const void *hdr, size_t hlen, plexus_btl_pack_fn_t pack, void *ctx,
                  size_t offset, size_t plen);
    int register_mem(void *base, size_t len, plexus_btl_mem_handle_t *out);
    int deregister_mem(plexus_btl_mem_handle_t *handle);
    int rdma(Endpoint *ep, void *local, size_t len, const plexus_btl_mem_handle_t *remote, uint64_t remote_addr,
             plexus_btl_rdma_done_fn_t done, void *ctx, bool write);
    int fast_channel(Endpoint *ep, plexus_btl_fast_op_t op);
    plexus_btl_fast_state_t fast_channel_state(const Endpoint *ep) const;
    int fast_channel_stats(plexus_btl_fast_stats_t *out) const;
    size_t pending() const { return queued_msgs_; }
    // BTL 1.4: one peer's messages still queued here (its connection under way, no credits): the
    // PML completes a send once it is 0. A posted work request is out of the process.
    size_t pending_to(const Endpoint *ep) const { return ep->deleted ? 0 : ep->queue.size(); }
    int progress();

private:
    // A put or get in flight.
    struct RdmaOp {
        plexus_btl_rdma_done_fn_t done = nullptr;
        void *ctx = nullptr;
        RegEntry *local = nullptr;
        Endpoint *ep = nullptr;
    };
    // The cache's registrar: the protection domain.
    class PdRegistrar : public Registrar {
    public:
        explicit PdRegistrar(OpenibModule *m) : m_(m) {}
        bool register_range(uintptr_t base, size_t len, uint64_t *handle, uint32_t *lkey, uint32_t *rkey,
                            bool *out_of_resources, std::string *why) override;
        void deregister(uint64_t handle) override;

    private:
        OpenibModule *m_;
    };

    // openib_module.cc: lifecycle
    bool open_port(const PortInfo &port, plexus_reason_t *why);
    bool open_connect_endpoint(plexus_reason_t *why);
    void fill_api();
    Endpoint *find(const std::string &nspace, uint32_t rank) const;
    Endpoint *add_one(const std::string &nspace, uint32_t rank, std::string *why);
    std::string describe(const Endpoint *ep) const;
    void fail_peer(Endpoint *ep, const std::string &why);

    // openib_connect.cc: queue pairs and the connect protocol
    void start_connect(Endpoint *ep);
    void run(Endpoint *ep, const std::vector<ConnAction> &actions);
    bool create_qp(Endpoint *ep, std::string *why);
    bool connect_qp(Endpoint *ep, std::string *why);
    bool post_recv(Endpoint *ep, uint32_t slot);
    void send_connect(Endpoint *ep, uint8_t type);
    static void on_connect_message(void *ctx, const void *data, size_t len, const plexus_dgram_peer_t *from);
    void on_connect(const ConnectMsg &m);
    int check_connects();

    // openib_send.cc: the send path
    int submit(Endpoint *ep, uint8_t tag, uint8_t kind, const Payload &p, bool internal);
    int try_post(Endpoint *ep, uint8_t tag, uint8_t kind, const Payload &p);
    int post_send(Endpoint *ep, uint8_t tag, uint8_t kind, const Payload &p);
    int post_ring(Endpoint *ep, uint8_t tag, const Payload &p);
    MsgHeader header_for(Endpoint *ep, uint8_t tag, uint8_t kind);
    void enqueue(Endpoint *ep, uint8_t tag, uint8_t kind, const Payload &p);
    int flush(Endpoint *ep);
    void send_control(Endpoint *ep, uint8_t tag, const void *body, size_t len);
    int return_credits(Endpoint *ep);
    int32_t take_send_buffer();

    // openib_progress.cc: completions and rings
    int poll_cq();
    int poll_rings();
    void list(Endpoint *ep);  // progress looks at ep (queued sends, credits owed)
    void on_recv(Endpoint *ep, uint32_t slot, size_t bytes);
    void on_credits(Endpoint *ep, uint16_t data, uint8_t ctl, uint16_t rdma, uint8_t rdma_gen);
    void deliver(Endpoint *ep, uint8_t tag, const uint8_t *data, size_t len);
    void on_completion_error(uint64_t wr_id, int status, const char *status_text);

    // openib_fast.cc: eager RDMA channels
    void request_channel(Endpoint *ep);
    void handle_control(Endpoint *ep, uint8_t tag, const uint8_t *data, size_t len);
    void grant_or_refuse(Endpoint *ep);
    void on_grant(Endpoint *ep, const ChanGrant &g);
    void take_back_channel(Endpoint *ep, uint32_t generation);
    int drain_in_ring(Endpoint *ep);

    // ---- hot ----
    CqPtr cq_;
    std::vector<Endpoint *> in_rings_;  // peers writing into a ring of this process
    std::vector<Endpoint *> owing_;     // peers with credits owed or sends queued (checked in progress)
    sdk::BtlRecvTable recv_;
    bool in_progress_ = false;
    uint64_t polls_ = 0;
    uint64_t fast_sends_ = 0;
    uint64_t slow_sends_ = 0;
    size_t queued_msgs_ = 0;

    // ---- cold ----
    const plexus_host_api_t *host_;
    const plexus_component_t *self_;
    OpenibParams params_;
    sdk::BtlModuleHandle<OpenibModule> handle_{};
    PortInfo port_;
    ContextPtr ctx_;
    PdPtr pd_;
    int cq_size_ = 0;
    int cq_needed_ = 0;
    size_t max_rdma_ = 0;
    uint32_t max_qp_wr_ = 0;
    size_t buf_bytes_ = 0;  // one send or receive buffer: header + max_send_size
    std::unique_ptr<RegisteredSlab> send_slab_;
    std::vector<int32_t> free_send_;
    PdRegistrar registrar_{this};
    std::unique_ptr<RegCache> reg_cache_;
    std::map<uint64_t, RegEntry *> exposed_;  // register_mem's tokens
    uint64_t next_token_ = 1;
    std::vector<RdmaOp> ops_;
    std::vector<uint32_t> free_ops_;
    const plexus_dgram_services_t *dgram_ = nullptr;
    plexus_dgram_endpoint_t *dgram_ep_ = nullptr;
    plexus_dgram_reliable_t *reliable_ = nullptr;
    std::string nspace_;
    uint32_t rank_ = 0;
    std::string host_name_;
    bool progress_registered_ = false;
    bool dgram_progress_registered_ = false;
    uint32_t channels_granted_ = 0;
    uint32_t next_generation_ = 1;
    std::vector<std::unique_ptr<Endpoint>> endpoints_;
    std::map<std::pair<std::string, uint32_t>, Endpoint *> by_proc_;
};

int64_t now_ns();

}  // namespace plexus::btl_openib
