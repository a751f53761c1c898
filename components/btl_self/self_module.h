// The btl_self module: messages a process sends to itself. send copies the message into a
// queued buffer (from a pool, so small messages allocate nothing); progress delivers what was
// queued, so a callback is never run from inside the send that caused it. put/get are memcpy.
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include <plexus/btl.h>
#include <plexus/sdk/btl_limits.hpp>
#include <plexus/sdk/progress.hpp>

namespace plexus::btl_self {

class SelfModule;

struct ModuleHandle {
    plexus_btl_module_t api;
    SelfModule *self;
};

// A queued message; its storage is kept for reuse when it is small.
struct Buffer {
    uint8_t tag = 0;
    std::vector<uint8_t> bytes;
};

// Buffers by the dozen: taken by send, given back after delivery.
class BufferPool {
public:
    static constexpr size_t kPooledCapacity = 64 * 1024;  // larger buffers are freed, not kept
    static constexpr size_t kMaxFree = 64;

    std::unique_ptr<Buffer> take(size_t len);
    void give(std::unique_ptr<Buffer> b);
    size_t free_count() const { return free_.size(); }

private:
    std::vector<std::unique_ptr<Buffer>> free_;
};

class SelfModule {
public:
    static constexpr size_t kEagerLimit = 64 * 1024;
    static constexpr size_t kMaxSendSize = 1024 * 1024;
    static constexpr size_t kRdmaThreshold = 64 * 1024;
    // Used unless the user sets btl_self_eager_limit, _max_send_size or _exclusivity.
    static constexpr plexus::sdk::BtlLimits kDefaultLimits{kEagerLimit, kMaxSendSize, PLEXUS_BTL_EXCLUSIVITY_SELF};

    SelfModule(const plexus_host_api_t *host, const plexus_component_t *self,
               const plexus::sdk::BtlLimits &limits = kDefaultLimits);
    ~SelfModule();
    SelfModule(const SelfModule &) = delete;
    SelfModule &operator=(const SelfModule &) = delete;

    int open(plexus_reason_t *why);
    plexus_btl_module_t *api() { return &handle_.api; }
    static SelfModule *from(plexus_btl_module_t *m) { return reinterpret_cast<ModuleHandle *>(m)->self; }

    int add_procs(size_t n, const plexus_btl_proc_t *procs, plexus_btl_endpoint_t **eps);
    int del_procs(size_t n, plexus_btl_endpoint_t *const *eps);
    // BTL 1.5: this process is never deleted while MPI runs.
    bool holds_proc(uint32_t) const { return false; }
    int register_recv(uint8_t tag, plexus_btl_recv_fn_t fn, void *ctx);
    int send(plexus_btl_endpoint_t *ep, uint8_t tag, const void *hdr, size_t hlen, const void *payload, size_t plen);
    // send_pack (BTL 1.2): the payload is packed by the caller straight into the queued buffer.
    int send_pack(plexus_btl_endpoint_t *ep, uint8_t tag, const void *hdr, size_t hlen, plexus_btl_pack_fn_t pack,
                  void *pack_ctx, size_t offset, size_t plen);
    int register_mem(void *base, size_t len, plexus_btl_mem_handle_t *out);
    int deregister_mem(plexus_btl_mem_handle_t *handle);
    int rdma(plexus_btl_endpoint_t *ep, void *local, size_t len, const plexus_btl_mem_handle_t *remote,
             uint64_t remote_addr, plexus_btl_rdma_done_fn_t done, void *ctx, bool write);
    size_t pending() const { return queue_.size(); }

    // Delivers the messages queued before this call (not those their callbacks queue).
    int progress();

private:
    struct Handler {
        plexus_btl_recv_fn_t fn = nullptr;
        void *ctx = nullptr;
    };
    // The one endpoint: this process, as the upper layer names it.
    struct SelfEndpoint {
        uint32_t upper_id = 0;
        bool added = false;
    };

    bool is_me(const plexus_btl_endpoint_t *ep) const {
        return ep == reinterpret_cast<const plexus_btl_endpoint_t *>(&me_) && me_.added;
    }

    const plexus_host_api_t *host_;
    const plexus_component_t *self_;
    ModuleHandle handle_{};
    std::string nspace_;
    uint32_t rank_ = 0;
    SelfEndpoint me_;
    Handler handlers_[PLEXUS_BTL_TAG_COUNT];
    bool unhandled_warned_[PLEXUS_BTL_TAG_COUNT] = {};
    std::deque<std::unique_ptr<Buffer>> queue_;
    BufferPool pool_;
    plexus::sdk::BtlLimits limits_;
    plexus::sdk::ProgressRegistration progress_;  // last: unregistered before the rest goes
};

}  // namespace plexus::btl_self
