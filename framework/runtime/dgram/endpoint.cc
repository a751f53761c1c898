// Sending (fragment, tag, send) and receiving (check, reassemble, deliver) of one endpoint.
#include "runtime/dgram/endpoint.h"

#include <poll.h>
#include <sys/random.h>

#include <algorithm>
#include <chrono>
#include <cstring>

namespace plexus::runtime::dgram {
namespace {

constexpr size_t kReceiveBuffer = 65536;  // above the largest UDP payload, so none is cut short

size_t total_length(const plexus_dgram_iov_t *iov, size_t n) {
    size_t len = 0;
    for (size_t i = 0; i < n; ++i) len += iov[i].len;
    return len;
}

// The pieces of iov covering [offset, offset + len), appended to out.
void slice(const plexus_dgram_iov_t *iov, size_t n, size_t offset, size_t len,
           std::vector<struct iovec> *out) {
    for (size_t i = 0; i < n && len > 0; ++i) {
        if (offset >= iov[i].len) {
            offset -= iov[i].len;
            continue;
        }
        const size_t take = std::min(iov[i].len - offset, len);
        out->push_back({const_cast<uint8_t *>(static_cast<const uint8_t *>(iov[i].base)) + offset, take});
        len -= take;
        offset = 0;
    }
}

}  // namespace

Status Endpoint::open(EndpointConfig config, std::unique_ptr<Transport> transport,
                      std::unique_ptr<Endpoint> *out) {
    if (std::string bad = config.settings.check(); !bad.empty())
        return Status::error(PLEXUS_ERR_BAD_PARAM, bad);
    std::unique_ptr<Endpoint> ep(new Endpoint);
    if (Status s = Authenticator::create(config.key.data(), config.key.size(), config.label, &ep->auth_); !s)
        return s;
    if (::getrandom(&ep->salt_, sizeof ep->salt_, 0) != sizeof ep->salt_)
        return Status::error(PLEXUS_ERR_NOT_AVAILABLE, "getrandom failed: no nonce for the endpoint");
    const Settings &s = config.settings;
    if (transport->max_datagram() < Header::kBytes + 64)
        return Status::error(PLEXUS_ERR_NOT_AVAILABLE, "the link carries datagrams of " +
                                                           std::to_string(transport->max_datagram()) +
                                                           " bytes, too few for a header and a payload");
    ep->max_payload_ = transport->max_datagram() - Header::kBytes;
    ep->max_payload_ = std::min<size_t>(ep->max_payload_, UINT16_MAX);
    ep->guard_ = std::make_unique<ReplayGuard>(s.max_peers);
    ep->reassembly_ = std::make_unique<Reassembly>(Reassembly::Limits{s.reassembly_memory, s.reassembly_timeout});
    ep->loss_ = std::make_unique<LossInjector>(s.drop_rate, s.drop_seed, config.sender);
    ep->epoch_ = config.epoch;
    ep->guard_->raise_floor(config.epoch);
    ep->rx_.resize(kReceiveBuffer);
    ep->stats_.struct_size = sizeof ep->stats_;
    ep->transport_ = std::move(transport);
    ep->config_ = std::move(config);
    *out = std::move(ep);
    return Status::ok();
}

plexus_dgram_limits_t Endpoint::limits() const {
    plexus_dgram_limits_t l{};
    l.struct_size = sizeof l;
    l.header = Header::kBytes;
    l.mtu = max_payload_;
    l.max_message = config_.settings.max_message;
    l.link_mtu = transport_->link_mtu();
    return l;
}

Address Endpoint::group_address(const void *name, size_t len) const {
    const std::vector<uint8_t> hash = auth_->derive("plexus-dgram group", name, len);
    if (hash.size() < 32) return {};  // no HMAC (libcrypto missing): no group to name
    return transport_->group_address(hash.data());
}

Status Endpoint::set_epoch(uint32_t epoch) {
    if (epoch < epoch_)
        return Status::error(PLEXUS_ERR_BAD_PARAM, "epoch " + std::to_string(epoch) +
                                                       " is below the endpoint's " + std::to_string(epoch_));
    epoch_ = epoch;
    guard_->raise_floor(epoch);
    return Status::ok();
}

// ---- sending ----

Status Endpoint::send(const Address &to, const plexus_dgram_iov_t *iov, size_t n) {
    const size_t len = total_length(iov, n);
    if (len > config_.settings.max_message)
        return Status::error(PLEXUS_ERR_BAD_PARAM, "message of " + std::to_string(len) +
                                                       " bytes is above runtime_dgram_max_message (" +
                                                       std::to_string(config_.settings.max_message) + ")");
    Header h;
    h.key_id = auth_->key_id();
    h.sender = config_.sender;
    h.epoch = epoch_;
    h.salt = salt_;
    h.msg_len = static_cast<uint32_t>(len);
    h.frag_count = static_cast<uint32_t>(std::max<size_t>(1, (len + max_payload_ - 1) / max_payload_));
    for (uint32_t i = 0; i < h.frag_count; ++i) {
        h.frag_index = i;
        h.frag_offset = static_cast<uint32_t>(i * max_payload_);
        h.frag_len = static_cast<uint16_t>(std::min(max_payload_, len - h.frag_offset));
        if (Status s = send_fragment(to, h, iov, n, h.frag_offset); !s) return s;
    }
    ++stats_.sent_messages;
    stats_.sent_bytes += len;
    return Status::ok();
}

Status Endpoint::send_fragment(const Address &to, Header &h, const plexus_dgram_iov_t *iov, size_t n,
                               size_t offset) {
    h.seq = ++next_seq_;
    uint8_t header[Header::kBytes];
    std::vector<struct iovec> pieces{{header, sizeof header}};
    slice(iov, n, offset, h.frag_len, &pieces);
    encode(h, header);
    if (!auth_->tag(header, pieces.data() + 1, pieces.size() - 1, header + Header::kAuthenticated))
        return Status::error(PLEXUS_ERR_NOT_AVAILABLE,
                             auth_->why().empty() ? "HMAC-SHA256 failed" : auth_->why());
    if (Status s = transport_->send(to, pieces.data(), pieces.size()); !s) return s;
    ++stats_.sent_datagrams;
    return Status::ok();
}

// ---- receiving ----

void Endpoint::expire_partials() {
    const auto now = Reassembly::Clock::now();
    if (now < next_expiry_) return;
    next_expiry_ = now + std::chrono::milliseconds(10);
    drop(PLEXUS_DGRAM_DROP_REASSEMBLY_TIMEOUT, reassembly_->expire(now));
}

int Endpoint::pump(int budget) {
    int delivered = 0;
    expire_partials();
    // Messages waiting for recv bound what is read: the rest waits in the socket.
    for (int i = 0; i < budget && ready_bytes_ <= config_.settings.reassembly_memory; ++i) {
        RawDatagram raw;
        uint64_t kernel = 0;
        Status s = transport_->receive(rx_.data(), rx_.size(), &raw, &kernel);
        drop(PLEXUS_DGRAM_DROP_KERNEL, kernel);
        if (!s || !raw.arrived) break;
        delivered += accept(raw);
    }
    unreachable_.clear();
    transport_->take_unreachable(&unreachable_);
    for (const Address &to : unreachable_)
        if (unreachable_fn_) unreachable_fn_(unreachable_ctx_, to), ++delivered;
    return delivered;
}

int Endpoint::accept(const RawDatagram &raw) {
    if (loss_->drop()) return drop(PLEXUS_DGRAM_DROP_INJECTED), 0;
    Header h;
    if (decode(rx_.data(), raw.len, config_.settings.max_message, &h) != ParseResult::ok)
        return drop(PLEXUS_DGRAM_DROP_MALFORMED), 0;
    if (h.key_id != auth_->key_id()) return drop(PLEXUS_DGRAM_DROP_FOREIGN), 0;
    if (!auth_->verify(rx_.data(), raw.len)) return drop(PLEXUS_DGRAM_DROP_AUTH), 0;
    if (h.salt == salt_ && h.sender == config_.sender) return drop(PLEXUS_DGRAM_DROP_SELF), 0;
    switch (guard_->admit(h.sender, h.epoch, h.salt, h.seq)) {
    case ReplayGuard::Verdict::stale: return drop(PLEXUS_DGRAM_DROP_STALE), 0;
    case ReplayGuard::Verdict::duplicate: return drop(PLEXUS_DGRAM_DROP_DUPLICATE), 0;
    case ReplayGuard::Verdict::fresh: break;
    }
    ++stats_.received_datagrams;
    const uint8_t *payload = rx_.data() + Header::kBytes;
    if (h.frag_count == 1) return deliver(payload, h.frag_len, h, raw, nullptr);
    std::vector<uint8_t> whole;
    switch (reassembly_->add(h, payload, &whole)) {
    case Reassembly::Outcome::partial: return 0;
    case Reassembly::Outcome::complete: return deliver(whole.data(), whole.size(), h, raw, &whole);
    case Reassembly::Outcome::no_memory: return drop(PLEXUS_DGRAM_DROP_REASSEMBLY_MEMORY), 0;
    case Reassembly::Outcome::inconsistent: return drop(PLEXUS_DGRAM_DROP_MALFORMED), 0;
    }
    return 0;
}

int Endpoint::deliver(const uint8_t *data, size_t len, const Header &h, const RawDatagram &raw,
                      std::vector<uint8_t> *owned) {
    Message m;
    m.info.struct_size = sizeof m.info;
    m.info.sender = h.sender;
    m.info.epoch = h.epoch;
    m.info.multicast = raw.multicast ? 1 : 0;
    m.info.len = len;
    m.info.from_len = std::min(raw.from.size(), sizeof m.info.from);
    std::memcpy(m.info.from, raw.from.data(), m.info.from_len);
    ++stats_.received_messages;
    stats_.received_bytes += len;
    if (handler_ && ready_.empty()) {
        handler_(handler_ctx_, data, len, &m.info);
        return 1;
    }
    if (owned)
        m.data = std::move(*owned);
    else
        m.data.assign(data, data + len);
    ready_bytes_ += m.data.size();
    ready_.push_back(std::move(m));
    return 0;
}

int Endpoint::progress() {
    int delivered = 0;
    // Messages queued before the handler was set go first, in order.
    while (handler_ && !ready_.empty()) {
        Message m = std::move(ready_.front());
        ready_.pop_front();
        ready_bytes_ -= m.data.size();
        handler_(handler_ctx_, m.data.data(), m.data.size(), &m.info);
        ++delivered;
    }
    return delivered + pump(kBudget);
}

Status Endpoint::recv(void *buf, size_t cap, plexus_dgram_recv_info_t *info, int timeout_ms) {
    if (handler_)
        return Status::error(PLEXUS_ERR_NOT_SUPPORTED, "recv: a handler is set, progress delivers to it");
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(std::max(timeout_ms, 0));
    for (;;) {
        if (ready_.empty()) pump(kBudget);
        if (!ready_.empty()) break;
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
            deadline - std::chrono::steady_clock::now()).count();
        if (left <= 0)
            return timeout_ms > 0 ? Status::error(PLEXUS_ERR_TIMEOUT, "no message within the timeout")
                                  : Status::error(PLEXUS_ERR_AGAIN, "no message waiting");
        // Woken by arrivals; a short slice still lets partial messages expire on time.
        pollfd p{transport_->wait_fd(), POLLIN, 0};
        (void)::poll(&p, 1, static_cast<int>(std::min<int64_t>(left, 50)));
    }
    Message &m = ready_.front();
    const uint32_t callers_size = info ? info->struct_size : 0;
    if (info) {
        std::memcpy(info, &m.info, std::min<size_t>(callers_size, sizeof m.info));
        info->struct_size = callers_size;
    }
    if (m.data.size() > cap)
        return Status::error(PLEXUS_ERR_OUT_OF_RESOURCE, "message of " + std::to_string(m.data.size()) +
                                                             " bytes, buffer of " + std::to_string(cap));
    if (!m.data.empty()) std::memcpy(buf, m.data.data(), m.data.size());
    ready_bytes_ -= m.data.size();
    ready_.pop_front();
    return Status::ok();
}

}  // namespace plexus::runtime::dgram
