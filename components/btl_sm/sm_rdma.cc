// btl_sm single copy: memory handles ({pid, base, length}) and get/put by CMA, synchronous.
#include <cstring>

#include "sm_module.h"

namespace plexus::btl_sm {
namespace {

constexpr uint32_t kHandleMagic = 0x534d4d48u;  // "SMMH"

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
    return out->magic == kHandleMagic;
}

}  // namespace

int SmModule::register_mem(void *base, size_t len, plexus_btl_mem_handle_t *out) {
    if (!out || (!base && len > 0)) return PLEXUS_ERR_BAD_PARAM;
    if (single_copy_until_ns_) end_stall_hold();  // every single-copy message passes here
    const MemHandle h{kHandleMagic, pid_, reinterpret_cast<uint64_t>(base), len};
    *out = plexus_btl_mem_handle_t{};
    out->len = sizeof h;
    std::memcpy(out->data, &h, sizeof h);
    return PLEXUS_SUCCESS;
}

int SmModule::deregister_mem(plexus_btl_mem_handle_t *handle) {
    MemHandle h;
    return read_handle(handle, &h) && h.pid == pid_ ? PLEXUS_SUCCESS : PLEXUS_ERR_BAD_PARAM;
}

int SmModule::rdma(Endpoint *ep, void *local, size_t len, const plexus_btl_mem_handle_t *remote,
                   uint64_t remote_addr, plexus_btl_rdma_done_fn_t done, void *ctx, bool write) {
    if (!cma_) return PLEXUS_ERR_NOT_SUPPORTED;
    if (!ep || ep->deleted || !ep->cma_ok) return PLEXUS_ERR_UNREACH;  // the PML uses fragments
    MemHandle h;
    if (!read_handle(remote, &h) || h.pid != ep->pid || (!local && len > 0)) return PLEXUS_ERR_BAD_PARAM;
    if (remote_addr < h.base || len > h.len || remote_addr - h.base > h.len - len) {
        host_->log(self_, PLEXUS_LOG_ERROR, "%s of %zu bytes at 0x%llx is outside the region [0x%llx, +%llu) of pid %d",
                   write ? "put" : "get", len, static_cast<unsigned long long>(remote_addr),
                   static_cast<unsigned long long>(h.base), static_cast<unsigned long long>(h.len), h.pid);
        return PLEXUS_ERR_BAD_PARAM;
    }
    const plexus_shm_iovec_t l{local, len};
    const plexus_shm_remote_iovec_t r{remote_addr, len};
    plexus_reason_t why{};
    if (int rc = shm_->single_copy(ep->pid, &l, 1, &r, 1, write, &why); rc != PLEXUS_SUCCESS) {
        host_->log(self_, PLEXUS_LOG_WARN, "%s of %zu bytes failed: %s", write ? "put" : "get", len, why.text);
        if (rc == PLEXUS_ERR_NOT_AVAILABLE || rc == PLEXUS_ERR_UNREACH) {
            ep->cma_ok = false;  // from now on the PML goes by fragments to this peer
            return PLEXUS_ERR_UNREACH;
        }
        return rc == PLEXUS_ERR_BAD_PARAM ? PLEXUS_ERR_BAD_PARAM : PLEXUS_ERROR;
    }
    if (done) done(ctx, PLEXUS_SUCCESS);
    return PLEXUS_SUCCESS;
}

}  // namespace plexus::btl_sm
