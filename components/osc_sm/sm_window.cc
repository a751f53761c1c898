// Window creation and release: each member allocates its control block from MPI_Alloc_mem
// memory, the members exchange where their window memory and control blocks lie (file and offset,
// from the osc services' mem_range), and each maps everybody else's through the host's shm
// peer_map. A member whose memory peers cannot map (a window over static or malloc'ed memory)
// makes every member decline together, and the window goes to the next component (osc_rdma).
#include "sm_window.h"

#include <unistd.h>

#include <cstdio>
#include <cstring>

#include <plexus/sdk/host.hpp>

namespace plexus::osc_sm {

Window::Window(const plexus_osc_scope_t &scope, const plexus_host_api_t *host, const plexus_component_t *self)
    : host_(host),
      self_(self),
      svc_(scope.services),
      win_(scope.win),
      comm_(scope.comm),
      rank_(scope.rank),
      size_(scope.comm_size),
      flavor_(scope.flavor),
      base_(scope.base),
      bytes_(scope.size),
      disp_unit_(scope.disp_unit) {
    if (PLEXUS_HOST_HAS(host, shm)) shm_ = host->shm;
}

int Window::fail(int cls, const char *fmt, ...) {
    char text[512];
    va_list ap;
    va_start(ap, fmt);
    std::vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    if (svc_ && svc_->set_error) svc_->set_error(win_, "%s", text);
    return cls;
}

// The selection's trace says only "declined": the reason goes to osc_base_verbose here.
int Window::decline(const char *fmt, ...) {
    char text[512];
    va_list ap;
    va_start(ap, fmt);
    std::vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    host_->log(self_, PLEXUS_LOG_DECISION, "osc_sm declines the window (rank %d of %d): %s", rank_, size_, text);
    return PLEXUS_OSC_DECLINE;
}

Card Window::my_card() {
    Card c{};
    c.pid = int32_t(::getpid());
    c.disp_unit = disp_unit_;
    c.size = bytes_;
    if (!ctl_) return c.status = kCardNoControl, c;
    plexus_osc_mem_range_t r{};
    r.struct_size = sizeof r;
    if (!svc_->mem_range(ctl_, control_bytes(uint32_t(size_)), &r)) return c.status = kCardNoControl, c;
    c.ctl_fd = r.fd;
    c.ctl_offset = r.offset;
    if (bytes_ > 0) {
        plexus_osc_mem_range_t w{};
        w.struct_size = sizeof w;
        if (!base_) return c.status = kCardNoMemory, c;
        if (!svc_->mem_range(base_, size_t(bytes_), &w)) return c.status = kCardNotShareable, c;
        c.win_fd = w.fd;
        c.win_offset = w.offset;
    }
    c.status = kCardOk;
    return c;
}

int Window::init(void **base) {
    const uint32_t n = uint32_t(size_);
    if (flavor_ == PLEXUS_OSC_FLAVOR_ALLOCATE && bytes_ > 0) {
        window_mem_ = AllocMem(svc_, svc_->alloc_mem(size_t(bytes_)));
        base_ = window_mem_.get();
    }
    control_mem_ = AllocMem(svc_, svc_->alloc_mem(control_bytes(n)));
    if (control_mem_.get()) ctl_ = init_control(control_mem_.get(), n, uint32_t(rank_));

    std::vector<Card> cards(n);
    Card mine = my_card();
    const plexus_coll_services_t *coll = svc_->coll;
    if (int rc = coll->dispatch->allgather(nullptr, &mine, int(sizeof mine), coll->byte_type, cards.data(),
                                           int(sizeof mine), coll->byte_type, comm_))
        return fail(rc, "MPI_Win_create: the exchange of window descriptions failed");
    for (uint32_t r = 0; r < n; ++r) {
        switch (cards[r].status) {
            case kCardOk: break;
            case kCardNotShareable:
                return decline("rank %u's window memory (%llu bytes) is not from MPI_Alloc_mem, so no peer can map it",
                               r, (unsigned long long)cards[r].size);
            case kCardNoMemory: return decline("rank %u could not allocate the window's memory", r);
            default: return decline("rank %u could not allocate its control block in shareable memory", r);
        }
    }
    if (int rc = attach_peers(cards); rc != PLEXUS_OSC_SUCCESS) return rc;
    if (flavor_ == PLEXUS_OSC_FLAVOR_ALLOCATE) *base = base_;
    return PLEXUS_OSC_SUCCESS;
}

// Maps every other member's memory; a failure anywhere is this process's decline, which the
// selection turns into everybody's.
int Window::attach_peers(const std::vector<Card> &cards) {
    peers_.resize(cards.size());
    for (int r = 0; r < size_; ++r)
        if (int rc = attach(r, cards[size_t(r)]); rc != PLEXUS_OSC_SUCCESS) return rc;
    return PLEXUS_OSC_SUCCESS;
}

int Window::attach(int r, const Card &c) {
    Peer &p = peers_[size_t(r)];
    p.size = c.size;
    p.disp_unit = c.disp_unit;
    if (r == rank_) {
        p.base = static_cast<uint8_t *>(base_);
        p.ctl = ctl_;
        return PLEXUS_OSC_SUCCESS;
    }
    plexus_reason_t why{};
    plexus_shm_peer_map_t *m = nullptr;
    void *at = nullptr;
    const uint32_t n = uint32_t(size_);
    if (shm_->peer_map(c.pid, c.ctl_fd, c.ctl_offset, control_bytes(n), &m, &at, &why) != PLEXUS_SUCCESS)
        return decline("cannot map rank %d's control block: %s", r, why.text);
    p.ctl_map = PeerMap(shm_, m);
    p.ctl = static_cast<ControlBlock *>(at);
    if (!control_valid(p.ctl, n)) return decline("rank %d's control block is not one for %u members", r, n);
    if (c.size > 0) {
        if (shm_->peer_map(c.pid, c.win_fd, c.win_offset, c.size, &m, &at, &why) != PLEXUS_SUCCESS)
            return decline("cannot map rank %d's window memory: %s", r, why.text);
        p.win_map = PeerMap(shm_, m);
        p.base = static_cast<uint8_t *>(at);
    }
    return PLEXUS_OSC_SUCCESS;
}

// After the barrier no member touches another's memory or control block again: each may unmap
// and free its own. (A barrier of messages, not the shared one: rank 0's block, which holds that,
// could be freed and reused while a slow member still watches it.)
int Window::free_window() {
    if (access_open_ || exposure_open_ || locks_held_ > 0)
        return fail(PLEXUS_OSC_ERR_RMA_SYNC, "MPI_Win_free inside an epoch (complete, wait or unlock it first)");
    if (int rc = svc_->coll->dispatch->barrier(nullptr, comm_); rc != PLEXUS_OSC_SUCCESS)
        return fail(rc, "MPI_Win_free: the closing barrier failed");
    peers_.clear();
    ctl_ = nullptr;
    control_mem_.reset();
    window_mem_.reset();
    return PLEXUS_OSC_SUCCESS;
}

}  // namespace plexus::osc_sm
