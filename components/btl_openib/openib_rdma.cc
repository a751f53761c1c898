// btl_openib put and get: RDMA write and read between registered memory. The remote side is a
// region the peer exposed with register_mem (its handle: address, length, rkey); the local buffer
// is registered through the registration cache, so a buffer used again is not registered again.
#include <cerrno>
#include <cstring>

#include "openib_module.h"
#include "work_id.h"

namespace plexus::btl_openib {

bool OpenibModule::PdRegistrar::register_range(uintptr_t base, size_t len, uint64_t *handle, uint32_t *lkey,
                                               uint32_t *rkey, bool *out_of_resources, std::string *why) {
    ibv_mr *mr = ibv_reg_mr(m_->pd_.get(), reinterpret_cast<void *>(base), len,
                            IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ);
    if (!mr) {
        *out_of_resources = errno == ENOMEM || errno == EAGAIN;
        *why = std::string("ibv_reg_mr: ") + std::strerror(errno);
        return false;
    }
    *handle = reinterpret_cast<uintptr_t>(mr);
    *lkey = mr->lkey;
    *rkey = mr->rkey;
    return true;
}

void OpenibModule::PdRegistrar::deregister(uint64_t handle) {
    (void)ibv_dereg_mr(reinterpret_cast<ibv_mr *>(static_cast<uintptr_t>(handle)));
}

int OpenibModule::register_mem(void *base, size_t len, plexus_btl_mem_handle_t *out) {
    if (!out || (!base && len)) return PLEXUS_ERR_BAD_PARAM;
    std::string why;
    RegEntry *e = reg_cache_->acquire(base, len, &why);
    if (!e) {
        host_->log(self_, PLEXUS_LOG_DETAIL, "cannot register %zu bytes at %p: %s", len, base, why.c_str());
        return PLEXUS_ERR_OUT_OF_RESOURCE;
    }
    const uint64_t token = next_token_++;
    exposed_[token] = e;
    const MemHandle h{reinterpret_cast<uintptr_t>(base), len, e->rkey, 0, token};
    *out = plexus_btl_mem_handle_t{};
    out->len = sizeof h;
    std::memcpy(out->data, &h, sizeof h);
    return PLEXUS_SUCCESS;
}

int OpenibModule::deregister_mem(plexus_btl_mem_handle_t *handle) {
    if (!handle || handle->len != sizeof(MemHandle)) return PLEXUS_ERR_BAD_PARAM;
    MemHandle h{};
    std::memcpy(&h, handle->data, sizeof h);
    auto it = exposed_.find(h.token);
    if (it == exposed_.end()) return PLEXUS_ERR_NOT_FOUND;
    reg_cache_->release(it->second);
    exposed_.erase(it);
    return PLEXUS_SUCCESS;
}

int OpenibModule::rdma(Endpoint *ep, void *local, size_t len, const plexus_btl_mem_handle_t *remote,
                       uint64_t remote_addr, plexus_btl_rdma_done_fn_t done, void *ctx, bool write) {
    if (!remote || remote->len != sizeof(MemHandle) || (!local && len)) return PLEXUS_ERR_BAD_PARAM;
    MemHandle h{};
    std::memcpy(&h, remote->data, sizeof h);
    if (remote_addr < h.base || len > h.len || remote_addr - h.base > h.len - len || len > max_rdma_)
        return PLEXUS_ERR_BAD_PARAM;  // outside what the peer exposed, or beyond the port's limit
    if (ep->deleted || ep->conn.state() == ConnState::Failed) return PLEXUS_ERR_UNREACH;
    if (!ep->conn.can_send()) {
        start_connect(ep);
        return PLEXUS_ERR_AGAIN;
    }
    if (len == 0) {
        if (done) done(ctx, PLEXUS_SUCCESS);
        return PLEXUS_SUCCESS;
    }
    if (ep->sq_posted >= uint32_t(params_.send_queue_depth)) return PLEXUS_ERR_AGAIN;
    std::string why;
    RegEntry *e = reg_cache_->acquire(local, len, &why);
    if (!e) {
        host_->log(self_, PLEXUS_LOG_DETAIL, "cannot register the local buffer of a %s: %s", write ? "put" : "get",
                   why.c_str());
        return PLEXUS_ERR_OUT_OF_RESOURCE;  // the upper layer moves these bytes by sends
    }
    uint32_t slot;
    if (free_ops_.empty()) {
        slot = static_cast<uint32_t>(ops_.size());
        ops_.emplace_back();
    } else {
        slot = free_ops_.back();
        free_ops_.pop_back();
    }
    ops_[slot] = RdmaOp{done, ctx, e, ep};
    ibv_sge sge{};
    sge.addr = reinterpret_cast<uintptr_t>(local);
    sge.length = static_cast<uint32_t>(len);
    sge.lkey = e->lkey;
    ibv_send_wr wr{};
    wr.wr_id = wr_id(kWrRdma, ep->index, slot);
    wr.sg_list = &sge;
    wr.num_sge = 1;
    wr.opcode = write ? IBV_WR_RDMA_WRITE : IBV_WR_RDMA_READ;
    wr.send_flags = IBV_SEND_SIGNALED;
    wr.wr.rdma.remote_addr = remote_addr;
    wr.wr.rdma.rkey = h.rkey;
    ibv_send_wr *bad = nullptr;
    if (ibv_post_send(ep->qp.get(), &wr, &bad) != 0) {
        ops_[slot] = RdmaOp{};
        free_ops_.push_back(slot);
        reg_cache_->release(e);
        fail_peer(ep, std::string("ibv_post_send (RDMA ") + (write ? "write" : "read") + "): " + std::strerror(errno));
        return PLEXUS_ERR_UNREACH;
    }
    ++ep->sq_posted;
    return PLEXUS_SUCCESS;
}

}  // namespace plexus::btl_openib
