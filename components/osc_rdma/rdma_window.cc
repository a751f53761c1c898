// A window's life: creation (memory registered with every BTL that can put/get, then base, size,
// disp_unit, window id and handles exchanged by an allgather) and MPI_Win_free.
#include <unistd.h>

#include <cstring>
#include <set>

#include <plexus/output.h>

#include "rdma_registry.h"
#include "rdma_window.h"

namespace plexus::osc_rdma {

Window::Window(const plexus_osc_scope_t &scope, const Config &config, const plexus_host_api_t *host)
    : svc_(scope.services),
      host_(host),
      win_(scope.win),
      comm_(scope.comm),
      config_(config),
      rank_(scope.rank),
      size_(scope.comm_size),
      flavor_(scope.flavor),
      local_peers_(scope.local_peers),
      base_(scope.base),
      bytes_(scope.size),
      disp_unit_(scope.disp_unit),
      sent_(scope.comm_size),
      received_(scope.comm_size) {}

Window::~Window() {
    progress_reg_.reset();
    async_.reset();
    if (registered_) registry_remove(svc_, id_);
    registrations_.clear();
    if (allocated_ && base_) svc_->free_mem(base_);
}

namespace {

constexpr int kMaxPaths = 4;

bool can_rdma(const plexus_btl_module_t *btl) {
    return (btl->caps & (PLEXUS_BTL_CAP_PUT | PLEXUS_BTL_CAP_GET)) && btl->register_mem && btl->deregister_mem;
}

}  // namespace

int Window::init(void **base) {
    if (flavor_ == PLEXUS_OSC_FLAVOR_DYNAMIC) return PLEXUS_OSC_DECLINE;  // the same answer everywhere
    // Local failures are kept until after the allgather: every process must take part in it.
    int local_rc = PLEXUS_OSC_SUCCESS;
    if (flavor_ == PLEXUS_OSC_FLAVOR_ALLOCATE && bytes_ > 0) {
        base_ = svc_->alloc_mem(size_t(bytes_));
        if (base_) {
            allocated_ = true;
            *base = base_;
        } else {
            local_rc = fail(PLEXUS_OSC_ERR_NO_MEM, "no memory for a window of %llu bytes", (unsigned long long)bytes_);
        }
    }
    if (local_rc == PLEXUS_OSC_SUCCESS) {
        local_rc = registry_add(svc_, this, &id_);
        registered_ = local_rc == PLEXUS_OSC_SUCCESS;
    }

    peers_.resize(size_t(size_));
    PeerMemory mine{};
    mine.base = reinterpret_cast<uintptr_t>(base_);
    mine.size = base_ ? bytes_ : 0;
    mine.disp_unit = disp_unit_;
    mine.win_id = id_;
    std::set<plexus_btl_module_t *> registered;
    std::vector<std::vector<plexus_osc_path_t>> paths(static_cast<size_t>(size_));
    for (int r = 0; r < size_; ++r) {
        Peer &p = peers_[size_t(r)];
        p.win = this;
        p.rank = r;
        plexus_osc_path_t out[kMaxPaths] = {};
        const int n = svc_->paths(win_, r, out, kMaxPaths);
        paths[size_t(r)].assign(out, out + std::max(0, std::min(n, kMaxPaths)));
        if (r == rank_) continue;
        if (paths[size_t(r)].empty()) {
            if (local_rc == PLEXUS_OSC_SUCCESS) local_rc = fail(PLEXUS_OSC_ERR_OTHER, "no BTL reaches rank %d", r);
            continue;
        }
        p.send_path = paths[size_t(r)][0];
        for (const plexus_osc_path_t &path : paths[size_t(r)]) {
            const bool rma_allowed = config_.protocol == Setting::kAuto || config_.protocol == Setting::kRma;
            if (rma_allowed && (path.btl->caps & (PLEXUS_BTL_CAP_PUT | PLEXUS_BTL_CAP_GET))) mine.flags |= kMayIssueRma;
            if (!can_rdma(path.btl) || mine.size == 0 || !registered.insert(path.btl).second) continue;
            plexus_btl_mem_handle_t h{};
            if (path.btl->register_mem(path.btl, base_, size_t(bytes_), &h) != PLEXUS_SUCCESS) continue;
            registrations_.push_back(std::make_unique<MemRegistration>(path.btl, h));
            if (!add_handle(&mine, path.btl->name, h)) registrations_.pop_back();
        }
    }

    // Passive target without the target is offered only by a process whose window is sound so
    // far: a failure here returns right after the allgather, and the segment's set-up is collective.
    std::string async_why;
    // A forced protocol (osc_rdma_protocol other than auto) asks for every message to move its
    // way, lock epochs included: the paper's experiments; only auto takes the shared segment.
    const bool async_on = config_.async_progress && config_.protocol == Setting::kAuto;
    if (local_rc == PLEXUS_OSC_SUCCESS && async_on && size_ > 1 && local_peers_ == size_ &&
        async_possible(host_, &async_why)) {
        mine.flags |= kAsyncWanted;
        mine.pid = int32_t(getpid());
        probe_word_ = (uint64_t(uint32_t(getpid())) << 32) ^ uint64_t(id_) ^ 0x9e3779b97f4a7c15ull;
        mine.probe_addr = reinterpret_cast<uintptr_t>(&probe_word_);
        mine.probe_value = probe_word_;
    }
    std::vector<PeerMemory> all(static_cast<size_t>(size_));
    const plexus_coll_services_t *coll = svc_->coll;
    int rc = coll->dispatch->allgather(nullptr, &mine, int(sizeof mine), coll->byte_type, all.data(), int(sizeof mine),
                                       coll->byte_type, comm_);
    if (rc != PLEXUS_OSC_SUCCESS) return fail(rc, "the exchange of window addresses failed");
    if (local_rc != PLEXUS_OSC_SUCCESS) return local_rc;
    uint32_t wanted = kAsyncWanted;
    for (const PeerMemory &m : all) wanted &= m.flags;
    table_ = std::make_unique<MemoryTable>(std::move(all));
    verbose_ = svc_->verbosity ? svc_->verbosity() : 0;
    if (wanted) {
        rc = setup_async();
        if (rc != PLEXUS_OSC_SUCCESS) return rc;
    } else if (size_ > 1) {
        trace(PLEXUS_LOG_DECISION, "passive target by messages (the target's progress engine): %s",
              !config_.async_progress ? "osc_rdma_async_progress is off"
              : !async_on             ? "osc_rdma_protocol forces one protocol for every message"
              : local_peers_ != size_ ? "members on other nodes (no progress thread between nodes)"
              : !async_why.empty()    ? async_why.c_str()
                                      : "another member cannot take part (parameter, node or single copy there)");
    }
    // The epochs' single copies (rdma_epoch_copy.cc) reach other members' memory without them,
    // like rma: async_ is the same at every member.
    fence_barrier_ = table_->rma_anywhere() || async_ != nullptr;
    direct_fence_ = size_ <= 2;
    trace(PLEXUS_LOG_DECISION, "%d processes, protocol %s; fences: %s", size_, kSettingNames[int(config_.protocol)],
          direct_fence_ ? "one message each way (two processes)"
                        : fence_barrier_ ? "reduce_scatter of the counts, then a barrier (put/get may be used)"
                                         : "reduce_scatter of the counts");

    for (int r = 0; r < size_; ++r) {
        Peer &p = peers_[size_t(r)];
        size_t cap = 0;
        if (r == rank_) {
            cap = config_.buffer_size ? config_.buffer_size : size_t(64 * 1024);  // loopback: no BTL limit
        } else {
            cap = message_capacity(config_, p.send_path.btl->eager_limit, p.send_path.btl->max_send_size);
            for (const plexus_osc_path_t &path : paths[size_t(r)]) {
                const plexus_btl_mem_handle_t *h = table_->handle(r, path.btl->name);
                if (h && (path.btl->caps & (PLEXUS_BTL_CAP_PUT | PLEXUS_BTL_CAP_GET))) {
                    p.rma_path = path;
                    p.rma_handle = h;
                    break;
                }
            }
        }
        if (cap == 0) return fail(PLEXUS_OSC_ERR_OTHER, "the BTL to rank %d sends messages too small for one record", r);
        if (r != rank_)
            trace(PLEXUS_LOG_DETAIL, "rank %d: messages by %s in buffers of %zu bytes; put/get %s%s", r,
                  p.send_path.btl->name, cap, p.rma_path.btl ? "by " : "",
                  p.rma_path.btl ? p.rma_path.btl->name : "not possible (no BTL with put/get holds its window)");
        p.outbox = std::make_unique<Coalescer>(cap, [this, &p](std::vector<uint8_t> &msg, uint32_t records) {
            return sink(p, msg, records);
        });
    }
    if (host_) progress_reg_.start(host_, plexus::sdk::progress_fn<Window, &Window::progress>, this);
    return PLEXUS_OSC_SUCCESS;
}

int Window::free_window() {
    if (access_open_ || exposure_open_ || locks_held_ > 0)
        return fail(PLEXUS_OSC_ERR_RMA_SYNC, "MPI_Win_free inside an epoch (complete, wait or unlock it first)");
    auto drained = [&] {
        if (!loopback_.empty()) return false;
        for (const Peer &p : peers_)
            if (!p.deferred.empty() || !p.deferred_rma.empty() || p.rma_outstanding) return false;
        return true;
    };
    progress();
    while (!drained())
        if (int rc = poll_once(); rc != PLEXUS_OSC_SUCCESS) return rc;
    // Nobody sends to this window once every process arrived here (their epochs are over).
    const int rc = svc_->coll->dispatch->barrier(nullptr, comm_);
    progress_reg_.reset();
    async_.reset();  // nobody takes its locks any more: every member passed the barrier
    if (registered_) registry_remove(svc_, id_);
    registered_ = false;
    registrations_.clear();
    if (allocated_ && base_) svc_->free_mem(base_);
    allocated_ = false;
    return rc == PLEXUS_OSC_SUCCESS ? rc : fail(rc, "MPI_Win_free: the closing barrier failed");
}

}  // namespace plexus::osc_rdma
