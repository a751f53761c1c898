// btl_openib lifecycle: discovery and the port at open, the connect endpoint and the card, peers
// in add_procs/del_procs, teardown.
#include "openib_module.h"

#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>

#include <plexus/sdk/btl_module.hpp>
#include <plexus/sdk/host.hpp>

#include "device.h"

namespace plexus::btl_openib {
namespace {

int progress_callback(void *ctx) { return static_cast<OpenibModule *>(ctx)->progress(); }

void set_reason(plexus_reason_t *why, const std::string &text) {
    if (why) std::snprintf(why->text, sizeof why->text, "%s", text.c_str());
}

// The dgram services of this core, when they include the reliable layer (DGRAM 1.1).
const plexus_dgram_services_t *reliable_dgram(const plexus_host_api_t *host) {
    if (!PLEXUS_HOST_HAS(host, dgram)) return nullptr;
    const plexus_dgram_services_t *d = host->dgram;
    if (d->major != PLEXUS_DGRAM_MAJOR || d->struct_size < sizeof(plexus_dgram_services_t)) return nullptr;
    return d;
}

}  // namespace

int64_t now_ns() {
    timespec ts{};
    ::clock_gettime(CLOCK_MONOTONIC, &ts);
    return int64_t{ts.tv_sec} * 1'000'000'000 + ts.tv_nsec;
}

void Payload::write_to(uint8_t *dst) const {
    if (hlen) std::memcpy(dst, hdr, hlen);
    if (!dlen) return;
    if (pack)
        pack(pack_ctx, offset, dlen, dst + hlen);
    else
        std::memcpy(dst + hlen, data, dlen);
}

OpenibModule::OpenibModule(const plexus_host_api_t *host, const plexus_component_t *self, const OpenibParams &params)
    : host_(host), self_(self), params_(params) {}

// Peers' QPs and buffers first, then the cache's registrations and the send buffers, then the
// CQ, PD and device: each verbs object before the one it was made from.
OpenibModule::~OpenibModule() {
    if (progress_registered_) host_->progress_unregister(progress_callback, this);
    if (dgram_progress_registered_) host_->progress_unregister(dgram_->reliable_progress, reliable_);
    for (auto &ep : endpoints_)
        if (ep->request_op) dgram_->op_free(ep->request_op);
    if (reliable_) dgram_->reliable_close(reliable_);
    if (dgram_ep_) dgram_->close(dgram_ep_);
    endpoints_.clear();
    reg_cache_.reset();
    send_slab_.reset();
    cq_.reset();  // declared first (hot), but it must go before the PD's device is closed
    pd_.reset();
    ctx_.reset();
}

int OpenibModule::open(plexus_reason_t *why) {
    if (std::string bad = validate_openib_params(params_); !bad.empty()) {
        host_->log(self_, PLEXUS_LOG_ERROR, "%s", bad.c_str());
        set_reason(why, bad);
        return PLEXUS_ERR_BAD_PARAM;
    }
    // The device first: without one, that is the reason (also in plexus_info, which has no runtime).
    const std::vector<DeviceInfo> devices = discover_devices();
    std::vector<PortSpec> include, exclude;
    std::string err;
    (void)parse_port_list("btl_openib_if_include", params_.if_include ? params_.if_include : "", &include, &err);
    (void)parse_port_list("btl_openib_if_exclude", params_.if_exclude ? params_.if_exclude : "", &exclude, &err);
    std::vector<PortInfo> ports;
    bool user_error = false;
    if (!select_ports(devices, include, exclude, &ports, &err, &user_error)) {
        // A name that does not exist is the user's to fix (as btl_tcp's interfaces); no device is not.
        host_->log(self_, user_error ? PLEXUS_LOG_ERROR : PLEXUS_LOG_DECISION, "%s", err.c_str());
        set_reason(why, err);
        return user_error ? PLEXUS_ERR_BAD_PARAM : PLEXUS_ERR_NOT_AVAILABLE;
    }
    if (!PLEXUS_HOST_HAS(host_, job_info) || !PLEXUS_HOST_HAS(host_, modex_put) || !PLEXUS_HOST_HAS(host_, modex_get) ||
        !PLEXUS_HOST_HAS(host_, abort)) {
        set_reason(why, "needs host API 1.1 (runtime: job info, modex)");
        return PLEXUS_ERR_NOT_AVAILABLE;
    }
    plexus_job_info_t job{};
    job.struct_size = sizeof job;
    if (host_->job_info(&job) != PLEXUS_SUCCESS) {
        set_reason(why, "no runtime (job information unavailable)");
        return PLEXUS_ERR_NOT_AVAILABLE;
    }
    nspace_ = job.nspace;
    rank_ = job.rank;
    char name[256] = {};
    ::gethostname(name, sizeof name - 1);
    host_name_ = name;
    if (!open_port(ports.front(), why)) return PLEXUS_ERR_NOT_AVAILABLE;
    if (!open_connect_endpoint(why)) return PLEXUS_ERR_NOT_AVAILABLE;
    fill_api();
    // Each registration is undone by the destructor on its own: a second that fails leaves no
    // dangling first.
    progress_registered_ = host_->progress_register(progress_callback, this) == PLEXUS_SUCCESS;
    dgram_progress_registered_ =
        progress_registered_ && host_->progress_register(dgram_->reliable_progress, reliable_) == PLEXUS_SUCCESS;
    if (!dgram_progress_registered_) {
        set_reason(why, "cannot register with the progress engine");
        return PLEXUS_ERR_NOT_AVAILABLE;
    }
    host_->log(self_, PLEXUS_LOG_DETAIL, "using %s port %u (%s, LID %u, MTU %u)", port_.device.c_str(),
               unsigned(port_.port), port_.link == LinkLayer::Ethernet ? "RoCE" : "InfiniBand", unsigned(port_.lid),
               port_.mtu);
    return PLEXUS_SUCCESS;
}

// The device, its protection domain, the completion queue and the registered send buffers.
bool OpenibModule::open_port(const PortInfo &port, plexus_reason_t *why) {
    std::string err;
    port_ = port;
    ctx_ = open_device(port.device, &err);
    if (!ctx_) {
        set_reason(why, err);
        return false;
    }
    ibv_device_attr attr{};
    if (ibv_query_device(ctx_.get(), &attr) != 0) {
        set_reason(why, "ibv_query_device " + port.device + ": " + std::strerror(errno));
        return false;
    }
    ibv_port_attr pa{};
    max_rdma_ = ibv_query_port(ctx_.get(), port.port, &pa) == 0 ? pa.max_msg_sz : (size_t{1} << 30);
    max_qp_wr_ = static_cast<uint32_t>(attr.max_qp_wr);
    if (uint64_t(params_.send_queue_depth) > max_qp_wr_ ||
        uint64_t(params_.recv_queue_depth + params_.ctl_credits) > max_qp_wr_) {
        set_reason(why, "btl_openib_send_queue_depth / recv_queue_depth + ctl_credits exceed the device's " +
                            std::to_string(max_qp_wr_) + " work requests per queue pair");
        return false;
    }
    pd_.reset(ibv_alloc_pd(ctx_.get()));
    if (!pd_) {
        set_reason(why, std::string("ibv_alloc_pd: ") + std::strerror(errno));
        return false;
    }
    cq_size_ = std::min(attr.max_cqe, 4096);
    cq_.reset(ibv_create_cq(ctx_.get(), cq_size_, nullptr, nullptr, 0));
    if (!cq_) {
        set_reason(why, std::string("ibv_create_cq: ") + std::strerror(errno));
        return false;
    }
    buf_bytes_ = (sizeof(MsgHeader) + params_.max_send_size + 63) / 64 * 64;
    send_slab_ = std::make_unique<RegisteredSlab>();
    if (!send_slab_->allocate(pd_.get(), buf_bytes_ * size_t(params_.send_buffers), IBV_ACCESS_LOCAL_WRITE)) {
        set_reason(why, std::string("registering the send buffers: ") + std::strerror(errno));
        return false;
    }
    for (int64_t i = params_.send_buffers - 1; i >= 0; --i) free_send_.push_back(static_cast<int32_t>(i));
    RegCacheLimits limits;
    limits.max_bytes = params_.reg_cache_max_bytes;
    limits.max_entries = static_cast<size_t>(params_.reg_cache_max_entries);
    limits.leave_pinned = params_.leave_pinned == kLeavePinnedYes;
    limits.page = static_cast<size_t>(::sysconf(_SC_PAGESIZE));
    reg_cache_ = std::make_unique<RegCache>(&registrar_, limits);
    return true;
}

// The reliable datagram endpoint the connect protocol runs on, and the card that names it.
bool OpenibModule::open_connect_endpoint(plexus_reason_t *why) {
    dgram_ = reliable_dgram(host_);
    if (!dgram_) {
        set_reason(why, "needs the core's reliable datagrams (host API 1.3, DGRAM 1.1) to connect queue pairs");
        return false;
    }
    plexus_dgram_open_args_t args{};
    args.struct_size = sizeof args;
    args.transport = PLEXUS_DGRAM_ANY;
    args.label = "btl_openib";
    args.sender = PLEXUS_DGRAM_SENDER_RANK;
    if (dgram_->open(&args, &dgram_ep_, why) != PLEXUS_SUCCESS) return false;
    plexus_dgram_reliable_args_t rargs{};
    rargs.struct_size = sizeof rargs;
    rargs.timeout_ms = static_cast<int32_t>(params_.connect_timeout);
    rargs.handler = on_connect_message;
    rargs.ctx = this;
    if (dgram_->reliable_open(dgram_ep_, &rargs, &reliable_, why) != PLEXUS_SUCCESS) return false;
    Card card{};
    card.magic = kCardMagic;
    card.version = kCardVersion;
    card.little_endian = 1;
    card.link_layer = static_cast<uint8_t>(port_.link);
    card.lid = port_.lid;
    card.port = port_.port;
    card.mtu_enum = port_.mtu_enum;
    std::memcpy(card.gid, port_.gid, sizeof card.gid);
    std::memcpy(&card.subnet_prefix, port_.gid, sizeof card.subnet_prefix);
    size_t len = sizeof card.dgram;
    if (dgram_->address(dgram_ep_, card.dgram, &len) != PLEXUS_SUCCESS) {
        set_reason(why, std::string("connect endpoint has no address: ") + dgram_->last_error(dgram_ep_));
        return false;
    }
    card.dgram_len = static_cast<uint32_t>(len);
    std::snprintf(card.host, sizeof card.host, "%s", host_name_.c_str());
    if (int rc = host_->modex_put(self_, &card, sizeof card); rc != PLEXUS_SUCCESS) {
        set_reason(why, "cannot publish the business card (modex_put returned " + std::to_string(rc) + ")");
        return false;
    }
    return true;
}

void OpenibModule::fill_api() {
    sdk::BtlModuleInfo info;
    info.name = "openib";
    // Fast channels live in the peers' memory, granted by their own eager_rdma_num: always asked for.
    info.caps = PLEXUS_BTL_CAP_SEND | PLEXUS_BTL_CAP_PUT | PLEXUS_BTL_CAP_GET | PLEXUS_BTL_CAP_FAST_CHANNELS;
    info.exclusivity = params_.exclusivity;
    info.latency_ns = port_.link == LinkLayer::Ethernet ? 3000 : 1500;
    info.bandwidth_mbps = 40000;
    info.eager_limit = params_.eager_limit;
    info.max_send_size = params_.max_send_size;
    info.rdma_threshold = params_.eager_limit;  // a rendezvous payload goes by RDMA read
    info.max_rdma_size = max_rdma_;
    sdk::fill_btl_module(&handle_.api, info);
    handle_.self = this;
}

Endpoint *OpenibModule::find(const std::string &nspace, uint32_t rank) const {
    auto it = by_proc_.find({nspace, rank});
    return it == by_proc_.end() ? nullptr : it->second;
}

// A peer reachable through this port: its card is there and it is on the same fabric (the same
// link layer; on InfiniBand the same subnet, as routing between subnets is not set up here).
Endpoint *OpenibModule::add_one(const std::string &nspace, uint32_t rank, std::string *why) {
    if (nspace == nspace_ && rank == rank_) return nullptr;  // btl_self's
    if (Endpoint *ep = find(nspace, rank)) return ep;
    const void *data = nullptr;
    size_t len = 0;
    if (int rc = host_->modex_get(self_, nspace.c_str(), rank, &data, &len, -1); rc != PLEXUS_SUCCESS) {
        *why = "no openib card (" + std::to_string(rc) + ")";
        return nullptr;
    }
    Card card{};
    if (!parse_card(data, len, &card, why)) return nullptr;
    if (card.link_layer != static_cast<uint8_t>(port_.link)) {
        *why = "on another link layer (InfiniBand and RoCE do not meet)";
        return nullptr;
    }
    uint64_t prefix = 0;
    std::memcpy(&prefix, port_.gid, sizeof prefix);
    if (port_.link == LinkLayer::InfiniBand && card.subnet_prefix != prefix) {
        *why = "on another InfiniBand subnet";
        return nullptr;
    }
    auto ep = std::make_unique<Endpoint>();
    ep->index = static_cast<uint32_t>(endpoints_.size());
    ep->nspace = nspace;
    ep->rank = rank;
    ep->card = card;
    ep->host = std::string(card.host, strnlen(card.host, sizeof card.host));
    ep->conn = Connection(std::make_pair(nspace_, rank_) < std::make_pair(nspace, rank));
    Endpoint *e = ep.get();
    endpoints_.push_back(std::move(ep));
    by_proc_[{nspace, rank}] = e;
    return e;
}

int OpenibModule::add_procs(size_t n, const plexus_btl_proc_t *procs, plexus_btl_endpoint_t **eps) {
    if (n > 0 && (!procs || !eps)) return PLEXUS_ERR_BAD_PARAM;
    for (size_t i = 0; i < n; ++i) {
        const std::string nspace = procs[i].nspace ? procs[i].nspace : nspace_;
        std::string why;
        Endpoint *ep = add_one(nspace, procs[i].rank, &why);
        eps[i] = reinterpret_cast<plexus_btl_endpoint_t *>(ep);
        if (!ep) {
            if (!why.empty())
                host_->log(self_, PLEXUS_LOG_DETAIL, "%s rank %u: not reachable: %s", nspace.c_str(), procs[i].rank,
                           why.c_str());
            continue;
        }
        ep->upper_id = procs[i].id;
        ep->deleted = false;
        ep->named = true;
        while (!ep->deferred.empty()) {  // it connected and sent before we knew it
            Deferred d = std::move(ep->deferred.front());
            ep->deferred.pop_front();
            deliver(ep, d.tag, d.bytes.data(), d.bytes.size());
        }
    }
    return PLEXUS_SUCCESS;
}

// The QP stays until close: a peer may still have writes in flight to it, and a destroyed QP
// would fail them there. Messages from a deleted peer are kept for its return (a process that left
// and connects again may send before our add_procs; nothing of the old meeting comes after MPI's
// disconnect); its channel is given back.
int OpenibModule::del_procs(size_t n, plexus_btl_endpoint_t *const *eps) {
    if (n > 0 && !eps) return PLEXUS_ERR_BAD_PARAM;
    for (size_t i = 0; i < n; ++i) {
        auto *ep = reinterpret_cast<Endpoint *>(eps[i]);
        if (!ep || ep->deleted) continue;
        if (ep->out.state != OutState::None) fast_channel(ep, PLEXUS_BTL_FAST_DROP);
        if (ep->conn.can_send()) flush(ep);
        ep->deleted = true;
        ep->named = false;
    }
    return PLEXUS_SUCCESS;
}

int OpenibModule::register_recv(uint8_t tag, plexus_btl_recv_fn_t fn, void *ctx) {
    return recv_.set(tag, fn, ctx);
}

std::string OpenibModule::describe(const Endpoint *ep) const {
    return "rank " + std::to_string(ep->rank) + " of " + ep->nspace + " on host " + ep->host;
}

// Whatever was accepted for the peer cannot be delivered: the job ends, naming it (as btl_tcp).
void OpenibModule::fail_peer(Endpoint *ep, const std::string &why) {
    const std::string msg = "btl_openib: lost " + describe(ep) + ": " + why;
    host_->log(self_, PLEXUS_LOG_ERROR, "%s", msg.c_str());
    queued_msgs_ -= ep->queue.size();
    ep->queue.clear();
    ep->queued_bytes = 0;
    (void)ep->conn.on_error();
    if (!ep->deleted) host_->abort(sdk::kBtlLostPeerStatus, msg.c_str());
}

}  // namespace plexus::btl_openib
