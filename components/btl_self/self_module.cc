#include "self_module.h"

#include <unistd.h>

#include <cstdio>
#include <cstring>

#include <plexus/sdk/host.hpp>

namespace plexus::btl_self {
namespace {

constexpr uint32_t kHandleMagic = 0x534c4648u;  // "SLFH"

struct MemHandle {
    uint32_t magic;
    int32_t pid;
    uint64_t base;
    uint64_t len;
};
static_assert(sizeof(MemHandle) <= PLEXUS_BTL_MEM_HANDLE_MAX);

bool read_handle(const plexus_btl_mem_handle_t *h, MemHandle *out) {
    if (!h || h->len != sizeof(MemHandle)) return false;
    std::memcpy(out, h->data, sizeof *out);
    return out->magic == kHandleMagic && out->pid == ::getpid();
}

}  // namespace

std::unique_ptr<Buffer> BufferPool::take(size_t len) {
    std::unique_ptr<Buffer> b;
    if (!free_.empty() && len <= kPooledCapacity) {
        b = std::move(free_.back());
        free_.pop_back();
    } else {
        b = std::make_unique<Buffer>();
    }
    b->bytes.resize(len);  // within the kept capacity: no allocation
    return b;
}

void BufferPool::give(std::unique_ptr<Buffer> b) {
    if (b->bytes.capacity() > kPooledCapacity || free_.size() >= kMaxFree) return;  // freed
    free_.push_back(std::move(b));
}

SelfModule::SelfModule(const plexus_host_api_t *host, const plexus_component_t *self,
                       const plexus::sdk::BtlLimits &limits)
    : host_(host), self_(self), limits_(limits) {}

SelfModule::~SelfModule() = default;

int SelfModule::open(plexus_reason_t *why) {
    plexus_job_info_t job{};
    job.struct_size = sizeof job;
    if (!PLEXUS_HOST_HAS(host_, job_info) || host_->job_info(&job) != PLEXUS_SUCCESS) {
        std::snprintf(why->text, sizeof why->text, "no runtime: cannot tell which process this is");
        return PLEXUS_ERR_NOT_AVAILABLE;
    }
    nspace_ = job.nspace;
    rank_ = job.rank;
    plexus_btl_module_t &m = handle_.api;
    m.struct_size = sizeof m;
    m.major = PLEXUS_BTL_MAJOR;
    m.minor = PLEXUS_BTL_MINOR;
    m.name = "self";
    m.caps = PLEXUS_BTL_CAP_SEND | PLEXUS_BTL_CAP_GET | PLEXUS_BTL_CAP_PUT;
    m.latency_ns = 10;
    m.bandwidth_mbps = 20000;
    plexus::sdk::apply_btl_limits(limits_, &m);
    m.rdma_threshold = kRdmaThreshold;
    m.max_rdma_size = 0;
    handle_.self = this;
    return PLEXUS_SUCCESS;
}

int SelfModule::add_procs(size_t n, const plexus_btl_proc_t *procs, plexus_btl_endpoint_t **eps) {
    if (n > 0 && (!procs || !eps)) return PLEXUS_ERR_BAD_PARAM;
    for (size_t i = 0; i < n; ++i) {
        const bool mine = procs[i].rank == rank_ && (!procs[i].nspace || nspace_ == procs[i].nspace);
        eps[i] = nullptr;
        if (!mine) continue;
        me_.upper_id = procs[i].id;
        me_.added = true;
        eps[i] = reinterpret_cast<plexus_btl_endpoint_t *>(&me_);
    }
    if (me_.added)
        return progress_.start(host_, plexus::sdk::progress_fn<SelfModule, &SelfModule::progress>, this);
    return PLEXUS_SUCCESS;
}

int SelfModule::del_procs(size_t n, plexus_btl_endpoint_t *const *eps) {
    if (n > 0 && !eps) return PLEXUS_ERR_BAD_PARAM;
    for (size_t i = 0; i < n; ++i)
        if (eps[i] == reinterpret_cast<plexus_btl_endpoint_t *>(&me_)) me_.added = false;
    return PLEXUS_SUCCESS;
}

int SelfModule::register_recv(uint8_t tag, plexus_btl_recv_fn_t fn, void *ctx) {
    handlers_[tag] = Handler{fn, fn ? ctx : nullptr};
    return PLEXUS_SUCCESS;
}

int SelfModule::send(plexus_btl_endpoint_t *ep, uint8_t tag, const void *hdr, size_t hlen, const void *payload,
                     size_t plen) {
    if (!is_me(ep) || hlen + plen > limits_.max_send_size || (hlen && !hdr) || (plen && !payload))
        return PLEXUS_ERR_BAD_PARAM;
    std::unique_ptr<Buffer> b = pool_.take(hlen + plen);
    b->tag = tag;
    if (hlen) std::memcpy(b->bytes.data(), hdr, hlen);
    if (plen) std::memcpy(b->bytes.data() + hlen, payload, plen);
    queue_.push_back(std::move(b));
    return PLEXUS_SUCCESS;
}

int SelfModule::send_pack(plexus_btl_endpoint_t *ep, uint8_t tag, const void *hdr, size_t hlen,
                          plexus_btl_pack_fn_t pack, void *pack_ctx, size_t offset, size_t plen) {
    if (!is_me(ep) || hlen + plen > limits_.max_send_size || (hlen && !hdr) || (plen && !pack)) return PLEXUS_ERR_BAD_PARAM;
    std::unique_ptr<Buffer> b = pool_.take(hlen + plen);
    b->tag = tag;
    if (hlen) std::memcpy(b->bytes.data(), hdr, hlen);
    if (plen) pack(pack_ctx, offset, plen, b->bytes.data() + hlen);
    queue_.push_back(std::move(b));
    return PLEXUS_SUCCESS;
}

int SelfModule::progress() {
    // Every wait polls here, and a process rarely sends to itself: empty() is two loads, size()
    // of a deque some arithmetic.
    if (queue_.empty()) return 0;
    // Only what was queued before: messages the callbacks send to themselves wait for the next
    // call, so a callback answering itself cannot keep this one from returning.
    const size_t n = queue_.size();
    for (size_t i = 0; i < n && !queue_.empty(); ++i) {
        std::unique_ptr<Buffer> b = std::move(queue_.front());
        queue_.pop_front();
        const Handler &h = handlers_[b->tag];
        if (h.fn) {
            const plexus_btl_recv_desc_t msg{me_.upper_id, b->tag, {0, 0, 0}, b->bytes.data(), b->bytes.size()};
            h.fn(h.ctx, &msg);
        } else if (!unhandled_warned_[b->tag]) {
            unhandled_warned_[b->tag] = true;
            host_->log(self_, PLEXUS_LOG_WARN, "dropping messages with tag 0x%02x: no callback registered", b->tag);
        }
        pool_.give(std::move(b));
    }
    return static_cast<int>(n);
}

int SelfModule::register_mem(void *base, size_t len, plexus_btl_mem_handle_t *out) {
    if (!out || (!base && len > 0)) return PLEXUS_ERR_BAD_PARAM;
    const MemHandle h{kHandleMagic, static_cast<int32_t>(::getpid()), reinterpret_cast<uint64_t>(base), len};
    *out = plexus_btl_mem_handle_t{};
    out->len = sizeof h;
    std::memcpy(out->data, &h, sizeof h);
    return PLEXUS_SUCCESS;
}

int SelfModule::deregister_mem(plexus_btl_mem_handle_t *handle) {
    MemHandle h;
    return read_handle(handle, &h) ? PLEXUS_SUCCESS : PLEXUS_ERR_BAD_PARAM;
}

int SelfModule::rdma(plexus_btl_endpoint_t *ep, void *local, size_t len, const plexus_btl_mem_handle_t *remote,
                     uint64_t remote_addr, plexus_btl_rdma_done_fn_t done, void *ctx, bool write) {
    MemHandle h;
    if (!is_me(ep) || !read_handle(remote, &h) || (!local && len > 0)) return PLEXUS_ERR_BAD_PARAM;
    if (remote_addr < h.base || len > h.len || remote_addr - h.base > h.len - len) {
        host_->log(self_, PLEXUS_LOG_ERROR, "%s of %zu bytes at 0x%llx is outside the region [0x%llx, +%llu)",
                   write ? "put" : "get", len, static_cast<unsigned long long>(remote_addr),
                   static_cast<unsigned long long>(h.base), static_cast<unsigned long long>(h.len));
        return PLEXUS_ERR_BAD_PARAM;
    }
    auto *region = reinterpret_cast<uint8_t *>(static_cast<uintptr_t>(remote_addr));
    if (len) {
        if (write)
            std::memmove(region, local, len);  // memmove: the caller may name overlapping memory
        else
            std::memmove(local, region, len);
    }
    if (done) done(ctx, PLEXUS_SUCCESS);
    return PLEXUS_SUCCESS;
}

}  // namespace plexus::btl_self
