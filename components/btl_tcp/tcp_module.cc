// btl_tcp lifecycle: interfaces, secret, listening socket and card at open; endpoints in
// add_procs/del_procs; teardown.
#include "tcp_module.h"

#include <poll.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>

#include <plexus/sdk/btl_module.hpp>
#include <plexus/sdk/host.hpp>

#include "frame.h"

namespace plexus::btl_tcp {
namespace {

int progress_callback(void *ctx) { return static_cast<TcpModule *>(ctx)->progress(); }

void set_reason(plexus_reason_t *why, const std::string &text) {
    if (why) std::snprintf(why->text, sizeof why->text, "%s", text.c_str());
}

bool same_subnet(const CardAddress &a, const Interface &mine) {
    return mine.netmask != 0 && (a.addr & mine.netmask) == (mine.addr & mine.netmask);
}

// The goodbye is 8 bytes on a connection whose queue is empty, so the socket has room for it
// unless the peer stopped reading; then it gets kGoodbyeWaitMs to make room, and a peer that does
// not sees the end of the stream alone, which it reports as a loss.
constexpr int kGoodbyeWaitMs = 1000;

void say_goodbye(int fd) {
    const FrameHeader bye = goodbye_header();
    const auto *bytes = reinterpret_cast<const uint8_t *>(&bye);
    size_t sent = 0;
    while (sent < sizeof bye) {
        const ssize_t w = ::send(fd, bytes + sent, sizeof bye - sent, MSG_NOSIGNAL | MSG_DONTWAIT);
        if (w > 0) {
            sent += static_cast<size_t>(w);
            continue;
        }
        if (w < 0 && errno == EINTR) continue;
        if (w < 0 && errno != EAGAIN && errno != EWOULDBLOCK) return;  // the peer is gone anyway
        pollfd p{fd, POLLOUT, 0};
        if (::poll(&p, 1, kGoodbyeWaitMs) <= 0) return;
    }
}

}  // namespace

int64_t now_ns() {
    timespec ts{};
    ::clock_gettime(CLOCK_MONOTONIC, &ts);
    return int64_t{ts.tv_sec} * 1'000'000'000 + ts.tv_nsec;
}

TcpModule::TcpModule(const plexus_host_api_t *host, const plexus_component_t *self, const TcpParams &params)
    : host_(host), self_(self), params_(params) {}

TcpModule::~TcpModule() {
    if (progress_registered_) host_->progress_unregister(progress_callback, this);
    for (auto &c : conns_)
        if (c->state != ConnState::Dead) close_gracefully(c.get());
    if (refused_ > 0)
        host_->log(self_, PLEXUS_LOG_WARN,
                   "refused %llu connection(s) that did not prove the job secret or one shared with their job (the last: %s)",
                   static_cast<unsigned long long>(refused_), last_refusal_.c_str());
}

// The peer reads what is left, then the goodbye (when everything for it went out: else it must
// see the loss), then the end of the stream: closing with unread bytes would reset the connection
// instead, and a reset may throw away what the peer has not read yet.
void TcpModule::close_gracefully(Conn *c) {
    const int fd = c->fd.get();
    if (fd >= 0) {
        const bool clean = c->state == ConnState::Established && c->hs_out.empty() &&
                           (!c->ep || (c->ep->queue.empty() && !c->ep->failed));
        if (clean) say_goodbye(fd);
        ::shutdown(fd, SHUT_WR);
        uint8_t sink[4096];
        while (::recv(fd, sink, sizeof sink, MSG_DONTWAIT) > 0) {
        }
    }
    kill(c);
}

bool TcpModule::select_interfaces(plexus_reason_t *why) {
    std::vector<Interface> all;
    std::string bad;
    if (!list_interfaces(host_, &all, &bad)) {
        set_reason(why, bad);
        return false;
    }
    std::vector<IfSpec> include, exclude;
    if (!parse_if_list("btl_tcp_if_include", params_.if_include ? params_.if_include : "", all, &include, &bad) ||
        !parse_if_list("btl_tcp_if_exclude", params_.if_exclude ? params_.if_exclude : "", all, &exclude, &bad) ||
        !btl_tcp::select_interfaces(all, include, exclude, &interfaces_, &bad)) {
        host_->log(self_, PLEXUS_LOG_ERROR, "%s", bad.c_str());
        set_reason(why, bad);
        return false;
    }
    return true;
}

int TcpModule::open(plexus_reason_t *why) {
    if (!PLEXUS_HOST_HAS(host_, job_info) || !PLEXUS_HOST_HAS(host_, job_secret) ||
        !PLEXUS_HOST_HAS(host_, modex_put) || !PLEXUS_HOST_HAS(host_, modex_get)) {
        set_reason(why, "needs host API 1.1 (runtime: job info, secret, modex)");
        return PLEXUS_ERR_NOT_AVAILABLE;
    }
    if (!PLEXUS_HOST_HAS(host_, ipv4_interfaces)) {
        set_reason(why, "needs host API 1.5 (the core's interface list)");
        return PLEXUS_ERR_NOT_AVAILABLE;
    }
    if (std::string bad = validate_tcp_params(params_); !bad.empty()) {
        host_->log(self_, PLEXUS_LOG_ERROR, "%s", bad.c_str());
        set_reason(why, bad);
        return PLEXUS_ERR_BAD_PARAM;
    }
    if (!select_interfaces(why)) return PLEXUS_ERR_BAD_PARAM;
    plexus_job_info_t job{};
    job.struct_size = sizeof job;
    if (host_->job_info(&job) != PLEXUS_SUCCESS) {
        set_reason(why, "no runtime (job information unavailable)");
        return PLEXUS_ERR_NOT_AVAILABLE;
    }
    nspace_ = job.nspace;
    rank_ = job.rank;
    uint8_t secret[PLEXUS_JOB_SECRET_LEN];
    if (host_->job_secret(secret, sizeof secret) != PLEXUS_SUCCESS || !key_.derive(secret, sizeof secret)) {
        set_reason(why, "no job secret to authenticate connections with");
        return PLEXUS_ERR_NOT_AVAILABLE;
    }
    sockopts_ = socket_options(params_);
    std::string err;
    if (!listen_socket(params_.port_min, params_.port_range, sockopts_, &listen_, &port_, &err)) {
        set_reason(why, "cannot listen: " + err);
        return PLEXUS_ERR_NOT_AVAILABLE;
    }
    // Tried here once, so that a value the kernel refuses is an error naming the parameters.
    if (!set_connection_options(listen_.get(), sockopts_, &err)) {
        const std::string bad = "btl_tcp_keepalive_time/_interval/_count, btl_tcp_user_timeout: " + err;
        host_->log(self_, PLEXUS_LOG_ERROR, "%s", bad.c_str());
        set_reason(why, bad);
        return PLEXUS_ERR_BAD_PARAM;
    }
    epoll_.reset(::epoll_create1(EPOLL_CLOEXEC));
    epoll_event ev{};
    ev.events = EPOLLIN;
    ev.data.ptr = nullptr;  // the listening socket
    if (!epoll_ || ::epoll_ctl(epoll_.get(), EPOLL_CTL_ADD, listen_.get(), &ev) != 0) {
        set_reason(why, "epoll: " + errno_text(errno));
        return PLEXUS_ERR_NOT_AVAILABLE;
    }
    host_name_ = host_name();
    node_ = node_identity();
    Card card;
    size_t dropped = 0;
    if (!make_card(interfaces_, port_, static_cast<int32_t>(::getpid()), host_name_, node_, &card, &dropped)) {
        set_reason(why, "host name too long for the business card");
        return PLEXUS_ERR_NOT_AVAILABLE;
    }
    if (dropped)
        host_->log(self_, PLEXUS_LOG_WARN, "%zu interfaces beyond the first %zu are not advertised", dropped,
                   kMaxCardAddresses);
    if (int rc = host_->modex_put(self_, &card, sizeof card); rc != PLEXUS_SUCCESS) {
        set_reason(why, "cannot publish the business card (modex_put returned " + std::to_string(rc) + ")");
        return PLEXUS_ERR_NOT_AVAILABLE;
    }
    max_frame_ = std::max<size_t>(params_.max_send_size, kMaxSendSizeCap) + sizeof(FrameHeader);
    fill_api();
    host_->log(self_, PLEXUS_LOG_DETAIL, "listening on port %u of %s", unsigned(port_),
               describe_interfaces(interfaces_).c_str());
    return PLEXUS_SUCCESS;
}

void TcpModule::fill_api() {
    sdk::BtlModuleInfo info;
    info.name = "tcp";
    info.caps = PLEXUS_BTL_CAP_SEND;  // no put/get: rendezvous goes by fragments (the PML's CTS path)
    info.exclusivity = params_.exclusivity;
    info.latency_ns = 20000;
    info.bandwidth_mbps = 1000;
    info.eager_limit = params_.eager_limit;
    info.max_send_size = params_.max_send_size;
    sdk::fill_btl_module(&handle_.api, info);
    handle_.self = this;
}

// The launcher knows (PMIX_LOCAL_PEERS, host API 1.4) for this job's ranks; for others, and for
// an older core, the node names in the cards decide.
bool TcpModule::on_this_node(const std::string &nspace, uint32_t rank, const Card &card) const {
    if (PLEXUS_HOST_HAS(host_, proc_on_this_node)) {
        const int rc = host_->proc_on_this_node(nspace.c_str(), rank);
        if (rc == 0 || rc == 1) return rc == 1;
    }
    return node_ == card.node;
}

// Loopback addresses only to a process of this node, and first; then the addresses on a subnet of
// one of ours; then the rest (reached through routing).
std::vector<CardAddress> TcpModule::candidates_for(const Card &card, bool local) const {
    std::vector<CardAddress> near, far, loop;
    for (size_t i = 0; i < card.count; ++i) {
        const CardAddress &a = card.addrs[i];
        if (a.loopback) {
            if (local) loop.push_back(a);
            continue;
        }
        bool same = false;
        for (const Interface &mine : interfaces_) same |= !mine.loopback && same_subnet(a, mine);
        (same ? near : far).push_back(a);
    }
    loop.insert(loop.end(), near.begin(), near.end());
    loop.insert(loop.end(), far.begin(), far.end());
    return loop;
}

Endpoint *TcpModule::add_one(const plexus_btl_proc_t &proc) {
    const std::string nspace = proc.nspace ? proc.nspace : nspace_;
    if (nspace == nspace_ && proc.rank == rank_) return nullptr;  // btl_self's
    if (auto it = by_proc_.find({nspace, proc.rank}); it != by_proc_.end()) {
        Endpoint *e = it->second;
        e->upper_id = proc.id;
        // Added again after a disconnect: a goodbye it said then is over once its connection is.
        if (e->deleted && !e->conn) e->said_goodbye = false;
        e->deleted = false;
        return e;
    }
    const void *data = nullptr;
    size_t len = 0;
    Card card;
    std::string why;
    if (int rc = host_->modex_get(self_, nspace.c_str(), proc.rank, &data, &len, -1); rc != PLEXUS_SUCCESS) {
        host_->log(self_, PLEXUS_LOG_DETAIL, "%s rank %u: no tcp card (%d)", nspace.c_str(), proc.rank, rc);
        return nullptr;
    }
    if (!parse_card(data, len, &card, &why)) {
        host_->log(self_, PLEXUS_LOG_WARN, "%s rank %u: bad tcp card: %s", nspace.c_str(), proc.rank, why.c_str());
        return nullptr;
    }
    auto ep = std::make_unique<Endpoint>();
    ep->nspace = nspace;
    ep->rank = proc.rank;
    ep->upper_id = proc.id;
    ep->host = card.host;
    ep->port = card.port;
    ep->local = on_this_node(nspace, proc.rank, card);
    ep->candidates = candidates_for(card, ep->local);
    if (ep->candidates.empty()) {
        host_->log(self_, PLEXUS_LOG_DETAIL,
                   "%s rank %u on host %s: no address to reach it (it advertises only loopback and is on "
                   "another node)",
                   nspace.c_str(), proc.rank, card.host);
        return nullptr;
    }
    Endpoint *e = ep.get();
    endpoints_.push_back(std::move(ep));
    by_proc_[{nspace, proc.rank}] = e;
    if (auto p = parked_.find({nspace, proc.rank}); p != parked_.end()) {
        Conn *c = p->second;
        parked_.erase(p);
        adopt(e, c);
    }
    return e;
}

int TcpModule::add_procs(size_t n, const plexus_btl_proc_t *procs, plexus_btl_endpoint_t **eps) {
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
    return PLEXUS_SUCCESS;
}

// The peers are gone (finalize, disconnect): what is still queued is pushed out first, as far as
// the sockets take it without waiting, their connections are closed in order, and the endpoints
// are freed once no connection names them (reap; btl.h: the upper layer keeps no pointer past
// del_procs, and a peer added again gets a new endpoint).
int TcpModule::del_procs(size_t n, plexus_btl_endpoint_t *const *eps) {
    if (n > 0 && !eps) return PLEXUS_ERR_BAD_PARAM;
    for (size_t i = 0; i < n; ++i) {
        auto *ep = reinterpret_cast<Endpoint *>(eps[i]);
        if (!ep || ep->deleted) continue;
        ep->deleted = true;
        if (ep->conn && !ep->failed) flush(ep);
        for (auto &c : conns_)
            if (c->ep == ep && c->state != ConnState::Dead) close_gracefully(c.get());
        ep->conn = ep->out = nullptr;
        queued_msgs_ -= ep->queue.size();
        ep->queue.clear();
        ep->queued_bytes = 0;
        deleted_eps_ = true;
    }
    if (!in_progress_) reap();
    return PLEXUS_SUCCESS;
}

int TcpModule::register_recv(uint8_t tag, plexus_btl_recv_fn_t fn, void *ctx) {
    return recv_.set(tag, fn, ctx);
}

size_t TcpModule::pending() const { return queued_msgs_; }

// A failed or deleted peer's messages will never leave: nothing is waited for.
size_t TcpModule::pending_to(const Endpoint *ep) const { return ep->failed || ep->deleted ? 0 : ep->queue.size(); }

bool TcpModule::holds_proc(uint32_t id) const {
    return std::any_of(endpoints_.begin(), endpoints_.end(),
                       [id](const std::unique_ptr<Endpoint> &ep) { return ep->deleted && ep->upper_id == id; });
}

size_t TcpModule::established() const {
    size_t n = 0;
    for (const auto &c : conns_) n += c->state == ConnState::Established;
    return n;
}

}  // namespace plexus::btl_tcp
