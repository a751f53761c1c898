// btl_sm lifecycle: the segment at open, endpoints in add_procs/del_procs, teardown.
#include "sm_module.h"

#include <sys/mman.h>
#include <sys/random.h>
#include <unistd.h>

#include <algorithm>
#include <cstddef>
#include <cstdio>
#include <cstring>
#include <new>

#include <plexus/sdk/btl_module.hpp>
#include <plexus/sdk/host.hpp>

#include "business_card.h"

namespace plexus::btl_sm {
namespace {

int progress_callback(void *ctx) { return static_cast<SmModule *>(ctx)->progress(); }

void set_reason(plexus_reason_t *why, const std::string &text) {
    if (why) std::snprintf(why->text, sizeof why->text, "%s", text.c_str());
}

uint64_t random_word() {
    uint64_t v = 0;
    if (::getrandom(&v, sizeof v, 0) != sizeof v) v = 0x9e3779b97f4a7c15ull ^ static_cast<uint64_t>(::getpid());
    return v | 1;  // never 0, what a zeroed page would hold
}

// Faults every page in now, on the NUMA node just chosen, instead of in the first messages.
void populate(uint8_t *base, size_t size) {
#ifdef MADV_POPULATE_WRITE
    if (::madvise(base, size, MADV_POPULATE_WRITE) == 0) return;
#endif
    const size_t page = static_cast<size_t>(::sysconf(_SC_PAGESIZE));
    for (size_t off = 0; off < size; off += page) base[off] = 0;
}

// The core's shm services, when the host offers a table of a version this build knows.
const plexus_shm_services_t *shm_services_of(const plexus_host_api_t *host) {
    if (!PLEXUS_HOST_HAS(host, shm)) return nullptr;
    const plexus_shm_services_t *shm = host->shm;
    return shm->major == PLEXUS_SHM_MAJOR && shm->struct_size >= sizeof(plexus_shm_services_t) ? shm : nullptr;
}

// Whether a process shares this node, as the runtime knows it from the launcher (PMIx's node map,
// host API 1.4: the same answer btl_tcp gets, so the two never both claim or both drop a peer):
// 1 or 0, or -1 when it does not know (a process of another job, an older core), and the node
// identity in the peer's card decides.
int runtime_says_local(const plexus_host_api_t *host, const std::string &nspace, uint32_t rank) {
    if (!PLEXUS_HOST_HAS(host, proc_on_this_node)) return -1;
    const int rc = host->proc_on_this_node(nspace.c_str(), rank);
    return rc == 0 || rc == 1 ? rc : -1;
}

}  // namespace

SmModule::SmModule(const plexus_host_api_t *host, const plexus_component_t *self, const SmParams &params)
    : host_(host), self_(self), params_(params) {}

SmModule::~SmModule() {
    if (progress_registered_) host_->progress_unregister(progress_callback, this);
    // Endpoints (peer mappings) go first, then this process's segment, unlinked if still named.
    by_slot_.clear();
    by_proc_.clear();
    endpoints_.clear();
}

int SmModule::open(plexus_reason_t *why) {
    if (!PLEXUS_HOST_HAS(host_, job_info) || !PLEXUS_HOST_HAS(host_, shm_name_prefix) ||
        !PLEXUS_HOST_HAS(host_, modex_put) || !PLEXUS_HOST_HAS(host_, modex_get)) {
        set_reason(why, "needs host API 1.1 (runtime: job info, modex)");
        return PLEXUS_ERR_NOT_AVAILABLE;
    }
    shm_ = shm_services_of(host_);
    if (!shm_) {
        set_reason(why, "needs host API 1.3 (shm services)");
        return PLEXUS_ERR_NOT_AVAILABLE;
    }
    // A threshold the user chose says "single copy from here on": the default limit is not theirs.
    if (sdk::param_is_set(host_, "btl_sm_single_copy_threshold", sdk::IfUnknown::user_set) &&
        !sdk::param_is_set(host_, "btl_sm_single_copy_limit", sdk::IfUnknown::user_set))
        params_.single_copy_limit = 0;
    if (std::string bad = validate_sm_params(params_); !bad.empty()) {
        host_->log(self_, PLEXUS_LOG_ERROR, "%s", bad.c_str());
        set_reason(why, bad);
        return PLEXUS_ERR_BAD_PARAM;
    }
    plexus_job_info_t job{};
    job.struct_size = sizeof job;
    if (host_->job_info(&job) != PLEXUS_SUCCESS) {
        set_reason(why, "no runtime (job information unavailable): sm needs a launched or singleton job");
        return PLEXUS_ERR_NOT_AVAILABLE;
    }
    pid_ = static_cast<int32_t>(::getpid());
    nspace_ = job.nspace;
    rank_ = job.rank;
    expected_attachers_ = job.local_size > 0 ? job.local_size - 1 : 0;
    std::string err;
    node_ = node_identity(&err);
    if (node_.empty()) {
        set_reason(why, "cannot tell which node this is: " + err);
        return PLEXUS_ERR_NOT_AVAILABLE;
    }
    if (params_.single_copy == kSingleCopyCma) {
        plexus_reason_t off{};
        cma_ = shm_->single_copy_available(&off) == 1;
        if (!cma_) host_->log(self_, PLEXUS_LOG_DECISION, "single copy off: %s", off.text);
    }
    const SingleCopyWindow window = single_copy_window_for(job);
    rdma_threshold_ = window.threshold;
    rdma_limit_ = window.limit;
    if (!create_segment(why)) return PLEXUS_ERR_NOT_AVAILABLE;
    probe_word_ = random_word();
    Card card{};
    if (!make_card(node_, segment_desc_, pid_, reinterpret_cast<uint64_t>(const_cast<uint64_t *>(&probe_word_)),
                   probe_word_, &card)) {
        set_reason(why, "node name too long for the business card");
        return PLEXUS_ERR_NOT_AVAILABLE;
    }
    if (int rc = host_->modex_put(self_, &card, sizeof card); rc != PLEXUS_SUCCESS) {
        set_reason(why, "cannot publish the business card (modex_put returned " + std::to_string(rc) + ")");
        return PLEXUS_ERR_NOT_AVAILABLE;
    }
    maybe_unlink();
    fill_api();
    host_->log(self_, PLEXUS_LOG_DETAIL, "segment %s (%s), %zu bytes; %u peers on this node expected",
               segment_desc_.name, segment_.named() ? "named" : "anonymous", segment_.size(), expected_attachers_);
    return PLEXUS_SUCCESS;
}

// The core makes the segment anonymous wherever peers can borrow our descriptor: then no crash
// leaves a name in /dev/shm. Otherwise it is named, and the last expected peer removes the name.
bool SmModule::create_segment(plexus_reason_t *why) {
    std::string err;
    LayoutRequest req{};
    req.dir_cap = expected_attachers_ + 64;  // room for processes of later jobs on this node
    req.fifo_cap = static_cast<uint32_t>(params_.fifo_size);
    req.eager_count = static_cast<uint32_t>(params_.free_list_num);
    req.eager_capacity = static_cast<uint32_t>(params_.eager_limit);
    req.max_count = static_cast<uint32_t>(params_.max_frag_num);
    req.max_capacity = static_cast<uint32_t>(params_.max_send_size);
    req.box_count = static_cast<uint32_t>(params_.fastbox_max);
    req.box_ring = static_cast<uint32_t>(params_.fastbox_size);
    SegmentHeader h{};
    if (!compute_layout(req, static_cast<size_t>(::sysconf(_SC_PAGESIZE)), &h, &err)) {
        set_reason(why, err);
        return false;
    }
    plexus_shm_create_args_t args{};
    args.struct_size = sizeof args;
    args.size = h.size;
    args.expected_peers = expected_attachers_;
    args.label = "sm";
    if (ShmSegment::create(shm_, args, &segment_, why) != PLEXUS_SUCCESS) return false;
    segment_desc_ = segment_.describe();
    if (segment_.named()) {
        plexus_reason_t named{};
        shm_->fd_passing_available(&named);
        host_->log(self_, PLEXUS_LOG_DECISION,
                   "named segment (%s): a crash before every local peer attached leaves it in /dev/shm", named.text);
    }
    uint8_t *base = segment_.base();
    // Placed on this process's NUMA node before the first touch: the receiver polls it.
    if (PLEXUS_HOST_HAS_OR_LOG(host_, self_, mem_bind_local, "segment left to first-touch placement")) {
        int rc = host_->mem_bind_local(base, h.size);
        if (rc != PLEXUS_SUCCESS && rc != PLEXUS_ERR_NOT_AVAILABLE)
            host_->log(self_, PLEXUS_LOG_DETAIL, "mem_bind_local returned %d; first-touch placement", rc);
    }
    populate(base, h.size);
    h.owner_pid = pid_;
    header_ = new (base) SegmentHeader(h);
    fifo_format(base + h.fifo_off, h.fifo_cap);
    fifo_ = FifoConsumer(base + h.fifo_off);
    eager_ = FragPool(base, h.eager_off, h.eager_count, h.eager_stride);
    max_ = FragPool(base, h.max_off, h.max_count, h.max_stride);
    by_slot_.assign(h.dir_cap, nullptr);
    for (uint32_t i = h.box_count; i-- > 0;) free_boxes_.push_back(i);
    return true;
}

// Where every rank has a CPU, fragments pay below 32 KiB (a single copy's syscall and page
// pinning cost more than the second copy) and above a few MiB (two processes copy at once, the
// small fragment ring stays in cache); a single copy wins between (README, "Measurements behind
// the defaults"). Where ranks outnumber CPUs, the pipelined copy waits for sender and receiver to
// share the CPUs while a single copy lets the receiver pull a whole message with the sender off
// the CPU: how early that pays depends on how crowded the node is
// (oversubscribed_single_copy_from; README, "Oversubscribed nodes"), unless the user set it.
SingleCopyWindow SmModule::single_copy_window_for(const plexus_job_info_t &job) const {
    const SingleCopyWindow configured{params_.single_copy_threshold, params_.single_copy_limit};
    if (!cma_ || !job.oversubscribed) return configured;
    // A host that cannot say whether the user set it: take the value as the user's.
    if (sdk::param_is_set(host_, "btl_sm_single_copy_threshold", sdk::IfUnknown::user_set)) return configured;
    const uint64_t threshold = oversubscribed_single_copy_from(job.local_size, job.cpus_online);
    host_->log(self_, PLEXUS_LOG_DECISION,
               "%u local ranks on %u CPUs: single copy from %llu bytes on, with no limit, not "
               "btl_sm_single_copy_threshold's and _limit's defaults",
               job.local_size, job.cpus_online, static_cast<unsigned long long>(threshold));
    return {threshold, 0};
}

void SmModule::fill_api() {
    sdk::BtlModuleInfo info;
    info.name = "sm";
    info.caps = PLEXUS_BTL_CAP_SEND | PLEXUS_BTL_CAP_FAST_CHANNELS;
    if (cma_) info.caps |= PLEXUS_BTL_CAP_GET | PLEXUS_BTL_CAP_PUT;
    info.exclusivity = PLEXUS_BTL_EXCLUSIVITY_NODE;
    info.latency_ns = 200;
    info.bandwidth_mbps = 10000;
    info.eager_limit = params_.eager_limit;
    info.max_send_size = params_.max_send_size;
    info.rdma_threshold = cma_ ? rdma_threshold_ : 0;
    info.rdma_limit = rdma_limit_;
    sdk::fill_btl_module(&handle_.api, info);
    handle_.self = this;
}

void SmModule::maybe_unlink() {
    if (segment_.named() && segment_.unlink(true))
        host_->log(self_, PLEXUS_LOG_DETAIL, "all %u local peers attached: %s unlinked", expected_attachers_,
                   segment_desc_.name);
}

std::unique_ptr<Endpoint> SmModule::attach(const plexus_shm_desc_t &where, std::string *why) {
    auto ep = std::make_unique<Endpoint>();
    plexus_reason_t reason{};
    if (ShmSegment::attach(shm_, where, &ep->segment, &reason) != PLEXUS_SUCCESS) {
        *why = reason.text;
        return nullptr;
    }
    auto *h = reinterpret_cast<SegmentHeader *>(ep->segment.base());
    if (!check_header(*h, ep->segment.size(), where.owner_pid, why)) return nullptr;
    // A free slot of the directory, taken by CAS: the owner frees the slots of processes that
    // ended (sm_release.cc), so a process that hosts spawned job after spawned job never runs out.
    DirEntry *dir = directory(ep->segment.base(), *h);
    uint32_t slot = h->dir_cap;
    for (uint32_t s = 0; s < h->dir_cap && slot == h->dir_cap; ++s) {
        uint32_t expected = 0;
        while (load_relaxed(dir[s].ready) == 0 && slot == h->dir_cap)
            if (cas_weak_relaxed(dir[s].ready, &expected, kDirClaimed)) slot = s;
            else expected = 0;
    }
    if (slot >= h->dir_cap) {
        *why = "its directory is full (" + std::to_string(h->dir_cap) + " processes attached)";
        return nullptr;
    }
    fetch_add_acq_rel(h->attached, 1u);  // attaches ever made, for diagnostics
    DirEntry &d = directory(ep->segment.base(), *h)[slot];
    d.segment = segment_desc_;
    store_release(d.ready, kDirReady);
    ep->header = h;
    ep->fifo = FifoProducer(ep->segment.base() + h->fifo_off);
    ep->slot_at_peer = slot;
    ep->pid = where.owner_pid;
    return ep;
}

// Segment tags are unique (random) where pids are not for ever: they name a peer.
Endpoint *SmModule::find_by_segment(uint64_t tag) const {
    for (const auto &ep : endpoints_)
        if (ep->segment.tag() == tag) return ep.get();
    return nullptr;
}

// A sender this process has not been told about attached and sent first: attach back by the
// name in the directory so its fragments can be read; its messages wait until add_procs.
Endpoint *SmModule::resolve_slot(uint32_t slot) {
    if (slot >= by_slot_.size()) return nullptr;
    DirEntry &d = directory(segment_.base(), *header_)[slot];
    if (load_acquire(d.ready) != kDirReady) return nullptr;
    plexus_shm_desc_t where;
    std::memcpy(&where, &d.segment, sizeof where);  // once: the sender may be writing nonsense
    Endpoint *ep = find_by_segment(where.tag);
    if (!ep) {
        std::string why;
        auto fresh = attach(where, &why);
        if (!fresh) {
            host_->log(self_, PLEXUS_LOG_WARN, "a message from pid %d cannot be read: %s", where.owner_pid,
                       why.c_str());
            return nullptr;
        }
        ep = fresh.get();
        endpoints_.push_back(std::move(fresh));
    }
    by_slot_[slot] = ep;
    return ep;
}

void SmModule::probe_cma(Endpoint *ep, uint64_t addr, uint64_t value) {
    if (!cma_) return;
    plexus_reason_t why{};
    ep->cma_ok = shm_->single_copy_probe(ep->pid, addr, value, &why) == PLEXUS_SUCCESS;
    if (ep->cma_ok) return;
    const int level = cma_failure_logged_ ? PLEXUS_LOG_DETAIL : PLEXUS_LOG_DECISION;
    cma_failure_logged_ = true;
    host_->log(self_, level, "no single copy with %s rank %u (get/put fall back to fragments): %s",
               ep->nspace.c_str(), ep->rank, why.text);
}

Endpoint *SmModule::add_one(const plexus_btl_proc_t &proc) {
    const std::string nspace = proc.nspace ? proc.nspace : nspace_;
    if (nspace == nspace_ && proc.rank == rank_) return nullptr;  // btl_self's
    if (auto it = by_proc_.find({nspace, proc.rank}); it != by_proc_.end()) {
        Endpoint *ep = it->second;
        ep->upper_id = proc.id;
        if (ep->deleted) ep->out.no_auto = false;  // back again
        ep->deleted = false;
        if (!ep->deferred.empty()) deferred_ready_ = housekeeping_ = true;  // it sent before we revived it
        released_.erase(std::remove(released_.begin(), released_.end(), ep), released_.end());
        return ep;
    }
    // A peer the runtime places on another node is another BTL's: its card is not even fetched
    // (across hosts that would be a round trip to the peer's server for nothing).
    const int local = runtime_says_local(host_, nspace, proc.rank);
    if (local == 0) return nullptr;
    const void *data = nullptr;
    size_t len = 0;
    Card card{};
    std::string why;
    if (int rc = host_->modex_get(self_, nspace.c_str(), proc.rank, &data, &len, -1); rc != PLEXUS_SUCCESS) {
        host_->log(self_, PLEXUS_LOG_DETAIL, "%s rank %u: no sm card (%d)", nspace.c_str(), proc.rank, rc);
        return nullptr;
    }
    if (!parse_card(data, len, &card, &why)) {
        host_->log(self_, PLEXUS_LOG_WARN, "%s rank %u: bad sm card: %s", nspace.c_str(), proc.rank, why.c_str());
        return nullptr;
    }
    if (local < 0 && node_ != card.node) return nullptr;  // another node: another BTL's peer
    Endpoint *ep = find_by_segment(card.segment.tag);
    if (!ep) {
        auto fresh = attach(card.segment, &why);
        if (!fresh) {
            host_->log(self_, PLEXUS_LOG_WARN, "%s rank %u is on this node but unreachable: %s",
                       nspace.c_str(), proc.rank, why.c_str());
            return nullptr;
        }
        ep = fresh.get();
        endpoints_.push_back(std::move(fresh));
    }
    ep->nspace = nspace;
    ep->rank = proc.rank;
    ep->upper_id = proc.id;
    ep->named = true;
    if (!ep->deferred.empty()) deferred_ready_ = housekeeping_ = true;
    probe_cma(ep, card.probe_addr, card.probe_value);
    by_proc_[{nspace, proc.rank}] = ep;
    return ep;
}

int SmModule::add_procs(size_t n, const plexus_btl_proc_t *procs, plexus_btl_endpoint_t **eps) {
    if (n > 0 && (!procs || !eps)) return PLEXUS_ERR_BAD_PARAM;
    bool any = false;
    for (size_t i = 0; i < n; ++i) {
        Endpoint *ep = add_one(procs[i]);
        eps[i] = reinterpret_cast<plexus_btl_endpoint_t *>(ep);
        any |= ep != nullptr;
    }
    if (any && !progress_registered_) {
        if (int rc = host_->progress_register(progress_callback, this); rc != PLEXUS_SUCCESS) return rc;
        progress_registered_ = true;
    }
    maybe_unlink();
    return PLEXUS_SUCCESS;
}

int SmModule::del_procs(size_t n, plexus_btl_endpoint_t *const *eps) {
    if (n > 0 && !eps) return PLEXUS_ERR_BAD_PARAM;
    for (size_t i = 0; i < n; ++i) {
        auto *ep = reinterpret_cast<Endpoint *>(eps[i]);
        if (!ep || ep->deleted) continue;
        // Our box at the peer goes back to it. The peer's box here is freed only when the peer
        // says DROP (its own del_procs): until then it may still write, and those bytes must
        // not land in a box meanwhile granted to somebody else.
        fast_channel(ep, PLEXUS_BTL_FAST_DROP);
        // The mapping stays until the peer's process has ended (sm_release.cc): fragments of
        // the peer may still sit in the FIFO.
        ep->deleted = true;
        ep->deferred.clear();
        if (std::find(released_.begin(), released_.end(), ep) == released_.end()) released_.push_back(ep);
    }
    update_housekeeping();
    return PLEXUS_SUCCESS;
}

int SmModule::register_recv(uint8_t tag, plexus_btl_recv_fn_t fn, void *ctx) {
    if (tag >= PLEXUS_BTL_TAG_INTERNAL_FIRST) return PLEXUS_ERR_BAD_PARAM;  // sm's own tags
    handlers_[tag] = Handler{fn, fn ? ctx : nullptr};
    return PLEXUS_SUCCESS;
}

}  // namespace plexus::btl_sm
