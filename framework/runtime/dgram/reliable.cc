// Sending, acknowledging, retransmitting and delivering reliable messages over an endpoint,
// which it reaches through the same C table components use.
#include "runtime/dgram/reliable.h"

#include <poll.h>
#include <sys/random.h>

#include <algorithm>
#include <cstring>

#include "base/output.h"
#include "runtime/dgram/address_text.h"
#include "runtime/dgram/dgram_services.h"
#include "runtime/dgram/endpoint.h"

namespace plexus::runtime::dgram {
namespace {

const plexus_dgram_services_t &dg() { return kServices; }

size_t total_length(const plexus_dgram_iov_t *iov, size_t n) {
    size_t len = 0;
    for (size_t i = 0; i < n; ++i) len += iov[i].len;
    return len;
}

int64_t ms_between(Reliable::Clock::time_point a, Reliable::Clock::time_point b) {
    return std::chrono::duration_cast<std::chrono::milliseconds>(b - a).count();
}

const char *kind_name(Reliable::Kind k) {
    switch (k) {
    case Reliable::Kind::oneway: return "message";
    case Reliable::Kind::request: return "request";
    case Reliable::Kind::response: return "response";
    }
    return "?";
}

}  // namespace

Reliable::Reliable(plexus_dgram_endpoint_t *ep, const Config &config, const Settings &settings)
    : ep_(ep), config_(config), settings_(settings),
      incoming_(IncomingMessages::Limits{settings.reassembly_memory,
                                         std::max(settings.reassembly_timeout, config.timeout),
                                         settings.max_peers}) {
    stats_.struct_size = sizeof stats_;
}

Status Reliable::open(plexus_dgram_endpoint_t *ep, const Config &config, const Settings &settings,
                      std::unique_ptr<Reliable> *out) {
    plexus_dgram_limits_t limits{};
    limits.struct_size = sizeof limits;
    if (dg().limits(ep, &limits) != PLEXUS_SUCCESS)
        return Status::error(PLEXUS_ERR_BAD_PARAM, "reliable_open: the endpoint has no limits");
    if (limits.mtu < RelData::kBytes + 16)
        return Status::error(PLEXUS_ERR_NOT_AVAILABLE, "reliable_open: datagrams of " + std::to_string(limits.mtu) +
                                                           " bytes leave no room for the reliable header");
    std::unique_ptr<Reliable> r(new Reliable(ep, config, settings));
    if (::getrandom(&r->incarnation_, sizeof r->incarnation_, 0) != sizeof r->incarnation_)
        return Status::error(PLEXUS_ERR_NOT_AVAILABLE, "reliable_open: getrandom failed");
    r->frag_size_ = limits.mtu - RelData::kBytes;
    r->max_bitmap_ = std::min<size_t>(limits.mtu - RelAck::kBytes, UINT16_MAX);
    dg().set_handler(ep, &Reliable::on_datagram, r.get());
    if (Endpoint *e = endpoint_of(ep))
        e->set_unreachable_handler([](void *ctx, const Address &to) { static_cast<Reliable *>(ctx)->unreachable(to); },
                                   r.get());
    *out = std::move(r);
    return Status::ok();
}

Reliable::~Reliable() {
    dg().set_handler(ep_, nullptr, nullptr);
    if (Endpoint *e = endpoint_of(ep_)) e->set_unreachable_handler(nullptr, nullptr);
    for (auto &[id, f] : flights_) {
        if (!f.op) continue;
        f.op->rel = nullptr;
        f.op->status = PLEXUS_ERR_NOT_AVAILABLE;
        f.op->error = describe(id, f) + ": the reliable layer was closed first";
    }
    trace(1, "reliable layer closed: " + stats_text());
}

void Reliable::trace(int level, const std::string &text) const {
    if (settings_.verbose >= level) mca::emit(0, "runtime_dgram", text);
}

std::string Reliable::stats_text() const {
    const plexus_dgram_reliable_stats_t &s = stats_;
    std::string t = "sent " + std::to_string(s.sent) + " (completed " + std::to_string(s.completed) +
                    ", timeouts " + std::to_string(s.timeouts) + "), fragments " + std::to_string(s.fragments) +
                    ", retransmitted " + std::to_string(s.retransmitted) + ", acks sent " +
                    std::to_string(s.acks_sent) + " received " + std::to_string(s.acks_received) +
                    ", delivered " + std::to_string(s.delivered) + ", duplicates dropped " +
                    std::to_string(s.duplicates) + ", malformed " + std::to_string(s.malformed) +
                    ", unmatched " + std::to_string(s.unmatched) + ", refused " + std::to_string(s.refused);
    if (s.rtt_samples) t += ", mean round trip " + std::to_string(s.rtt_sum_us / s.rtt_samples) + " us";
    return t;
}

std::string Reliable::describe(uint64_t id, const Flight &f) const {
    std::string peer = address_text(f.to.data(), f.to.size());
    if (f.heard) peer += " (sender " + std::to_string(f.peer_sender) + ")";
    return std::string(kind_name(f.kind)) + " " + std::to_string(id) + " of " + std::to_string(f.data.size()) +
           " bytes to peer " + peer;
}

// ---- sending ----

Status Reliable::send(Kind kind, const Address &to, const plexus_dgram_iov_t *iov, size_t n, int timeout_ms,
                      const plexus_dgram_peer_t *reply, plexus_dgram_op_t **op) {
    const size_t len = total_length(iov, n);
    if (len > settings_.max_message)
        return Status::error(PLEXUS_ERR_BAD_PARAM, std::string(kind_name(kind)) + " of " + std::to_string(len) +
                                                       " bytes is above runtime_dgram_max_message (" +
                                                       std::to_string(settings_.max_message) + ")");
    const auto now = Clock::now();
    const uint64_t id = ++next_id_;
    const auto deadline = now + (timeout_ms > 0 ? std::chrono::milliseconds(timeout_ms) : config_.timeout);
    Flight f{kind, to, {}, {}, OutgoingMessage(len, frag_size_, config_.timing), now, deadline, nullptr, false, 0};
    f.data.reserve(len);
    for (size_t i = 0; i < n; ++i) {
        const auto *p = static_cast<const uint8_t *>(iov[i].base);
        f.data.insert(f.data.end(), p, p + iov[i].len);
    }
    f.shape.flags = kind == Kind::request ? kRelRequest : kind == Kind::response ? kRelResponse : 0;
    f.shape.incarnation = incarnation_;
    f.shape.msg_id = id;
    if (reply) {
        f.shape.reply_to = reply->request;
        f.shape.reply_incarnation = reply->incarnation;
    }
    f.shape.msg_len = static_cast<uint32_t>(len);
    f.shape.frag_count = f.msg.count();
    f.shape.frag_size = static_cast<uint32_t>(frag_size_);
    auto it = flights_.emplace(id, std::move(f)).first;
    // The first fragment goes now, so that a bad address fails the call rather than the op.
    if (Status s = transmit(it->second, id, 0); !s && s.code == PLEXUS_ERR_BAD_PARAM) {
        --stats_.fragments;
        flights_.erase(it);
        return s;
    }
    ++stats_.sent;
    // A response acknowledges its request: the ack owed for it would only arrive after it.
    if (reply) owed_.erase({IncomingMessages::PeerKey{reply->sender, reply->incarnation}, reply->request});
    if (op) {
        *op = new plexus_dgram_op;
        (*op)->rel = this;
        (*op)->id = id;
        it->second.op = *op;
    }
    service(it, now);
    return Status::ok();
}

Status Reliable::transmit(Flight &f, uint64_t id, uint32_t index) {
    RelData h = f.shape;
    h.frag_index = index;
    uint8_t header[RelData::kBytes];
    encode(h, header);
    const plexus_dgram_iov_t pieces[2] = {{header, sizeof header}, {f.data.data() + h.offset(), h.payload_len()}};
    const bool again = f.msg.sent(index, Clock::now());
    ++(again ? stats_.retransmitted : stats_.fragments);
    if (again) trace(50, "retransmitting fragment " + std::to_string(index) + " of " + describe(id, f));
    // A datagram the socket would not take is as good as lost: the timer sends it again.
    const int rc = dg().sendv(ep_, f.to.data(), f.to.size(), pieces, h.payload_len() ? 2 : 1);
    if (rc == PLEXUS_SUCCESS) return Status::ok();
    return Status::error(rc, dg().last_error(ep_));
}

int Reliable::service(std::map<uint64_t, Flight>::iterator it, Clock::time_point now) {
    Flight &f = it->second;
    if (now >= f.deadline) {
        std::string why;
        if (f.kind == Kind::request && f.msg.all_acked())
            why = ": acknowledged, but no response within " + std::to_string(ms_between(f.started, f.deadline)) + " ms";
        else
            why = ": " + std::to_string(f.msg.acked()) + " of " + std::to_string(f.msg.count()) +
                  " fragments acknowledged within " + std::to_string(ms_between(f.started, f.deadline)) + " ms (" +
                  std::to_string(f.msg.transmissions()) + " transmissions; " +
                  (f.heard ? "the peer answered at first)" : "nothing ever came back)");
        ++stats_.timeouts;
        finish(it, PLEXUS_ERR_TIMEOUT, "timed out: " + describe(it->first, f) + why);
        return 1;
    }
    const OutgoingMessage::Cause cause = f.msg.due(now, &due_);
    for (uint32_t i : due_) transmit(f, it->first, i);
    if (cause == OutgoingMessage::Cause::timer)
        trace(10, "timer: " + std::to_string(due_.size()) + " fragments again, " + describe(it->first, f));
    // Repairs go before new fragments; those the window has room for go at the next look.
    if (cause == OutgoingMessage::Cause::presumed_lost) changed_ = true;
    next_wakeup_ = std::min({next_wakeup_, f.msg.next_timer(), f.deadline});
    return static_cast<int>(due_.size());
}

void Reliable::finish(std::map<uint64_t, Flight>::iterator it, int status, std::string error) {
    Flight &f = it->second;
    if (status == PLEXUS_SUCCESS) {
        ++stats_.completed;
        trace(10, describe(it->first, f) + " completed in " +
                      std::to_string(std::chrono::duration_cast<std::chrono::microseconds>(Clock::now() - f.started).count()) +
                      " us, " + std::to_string(f.msg.transmissions()) + " transmissions");
    } else {
        trace(1, error);
    }
    if (f.op) {
        f.op->rel = nullptr;
        f.op->status = status;
        f.op->error = std::move(error);
    }
    flights_.erase(it);
}

void Reliable::unreachable(const Address &to) {
    for (auto it = flights_.begin(); it != flights_.end();) {
        auto next = std::next(it);
        if (it->second.to == to) {
            ++stats_.timeouts;  // ended without an answer, as a timeout does, only sooner
            finish(it, PLEXUS_ERR_UNREACH,
                   "unreachable: " + describe(it->first, it->second) +
                       ": nothing listens there any more (its host answered ICMP port unreachable: the endpoint "
                       "was closed or its process ended)");
        }
        it = next;
    }
}

void Reliable::abandon(plexus_dgram_op_t *op) {
    auto it = flights_.find(op->id);
    if (it != flights_.end() && it->second.op == op) flights_.erase(it);
    op->rel = nullptr;
}

// ---- receiving ----

void Reliable::on_datagram(void *ctx, const void *data, size_t len, const plexus_dgram_recv_info_t *info) {
    auto *self = static_cast<Reliable *>(ctx);
    const auto *p = static_cast<const uint8_t *>(data);
    RelData h;
    RelAck a;
    switch (decode(p, len, self->settings_.max_message, &h, &a)) {
    case RelParse::data: return self->on_data(h, p + RelData::kBytes, info);
    case RelParse::ack: return self->on_ack(a, p + RelAck::kBytes, info);
    case RelParse::malformed: ++self->stats_.malformed; return;
    }
}

void Reliable::on_data(const RelData &h, const uint8_t *payload, const plexus_dgram_recv_info_t *info) {
    const IncomingMessages::PeerKey key{info->sender, h.incarnation};
    std::vector<uint8_t> message;
    const IncomingMessages::Outcome outcome = incoming_.add(key, h, payload, &message);
    switch (outcome) {
    case IncomingMessages::Outcome::refused: ++stats_.refused; return;
    case IncomingMessages::Outcome::inconsistent: ++stats_.malformed; return;
    case IncomingMessages::Outcome::duplicate: ++stats_.duplicates; break;
    case IncomingMessages::Outcome::partial:
    case IncomingMessages::Outcome::complete: break;
    }
    // Acknowledged once per progress pass, however many of its fragments came in it; a
    // duplicate is acknowledged again, since the ack it missed is why it came.
    owed_[{key, h.msg_id}] = OwedAck{Address(info->from, info->from + info->from_len), h.frag_count};
    if (outcome == IncomingMessages::Outcome::complete) deliver(h, message, info);
}

void Reliable::deliver(const RelData &h, std::vector<uint8_t> &message, const plexus_dgram_recv_info_t *info) {
    if (h.flags & kRelResponse) {
        auto it = flights_.find(h.reply_to);
        if (it == flights_.end() || it->second.kind != Kind::request || h.reply_incarnation != incarnation_) {
            ++stats_.unmatched;  // its request timed out or was abandoned
            return;
        }
        ++stats_.delivered;
        Flight &f = it->second;
        f.msg.ack_all();  // the response proves the request arrived, whatever became of its acks
        f.heard = true;
        f.peer_sender = info->sender;
        if (f.op) f.op->response = std::move(message);
        finish(it, PLEXUS_SUCCESS, {});
        return;
    }
    ++stats_.delivered;
    if (!config_.handler) return;
    plexus_dgram_peer_t from{};
    from.sender = info->sender;
    from.addr_len = static_cast<uint32_t>(std::min<size_t>(info->from_len, sizeof from.addr));
    std::memcpy(from.addr, info->from, from.addr_len);
    from.incarnation = h.incarnation;
    from.request = (h.flags & kRelRequest) ? h.msg_id : 0;
    config_.handler(config_.ctx, message.data(), message.size(), &from);
}

void Reliable::on_ack(const RelAck &a, const uint8_t *bitmap, const plexus_dgram_recv_info_t *info) {
    auto it = flights_.find(a.msg_id);
    if (a.incarnation != incarnation_ || it == flights_.end() || it->second.msg.count() != a.frag_count) {
        ++stats_.unmatched;  // for a message already complete: a duplicate's second ack
        return;
    }
    ++stats_.acks_received;
    Flight &f = it->second;
    f.heard = true;
    f.peer_sender = info->sender;
    int64_t rtt_us = -1;
    if (f.msg.ack(a.base, bitmap, a.bitmap_len, Clock::now(), &rtt_us) > 0) changed_ = true;
    if (rtt_us >= 0) {
        ++stats_.rtt_samples;
        stats_.rtt_sum_us += static_cast<uint64_t>(rtt_us);
    }
    if (f.msg.all_acked() && f.kind != Kind::request) finish(it, PLEXUS_SUCCESS, {});
}

int Reliable::flush_acks() {
    int sent = 0;
    std::vector<uint8_t> bitmap;
    for (auto &[key, owed] : owed_) {
        RelAck a;
        if (!incoming_.ack_of(key.first, key.second, owed.frag_count, max_bitmap_, &a, &bitmap)) continue;
        uint8_t header[RelAck::kBytes];
        encode(a, header);
        const plexus_dgram_iov_t pieces[2] = {{header, sizeof header}, {bitmap.data(), bitmap.size()}};
        if (dg().sendv(ep_, owed.to.data(), owed.to.size(), pieces, bitmap.empty() ? 1 : 2) == PLEXUS_SUCCESS) {
            ++stats_.acks_sent;
            ++sent;
        }
    }
    owed_.clear();
    return sent;
}

// ---- driving ----

int Reliable::progress() {
    int events = dg().progress(ep_);
    events += flush_acks();
    if (flights_.empty()) return events;
    const auto now = Clock::now();
    // Nothing is due before the earliest timer or deadline unless an ack opened the window.
    if (!changed_ && now < next_wakeup_) return events;
    changed_ = false;
    next_wakeup_ = Clock::time_point::max();
    for (auto it = flights_.begin(); it != flights_.end();) {
        auto next = std::next(it);
        events += service(it, now);
        it = next;
    }
    return events;
}

Status Reliable::wait(plexus_dgram_op_t *op, int timeout_ms) {
    const auto start = Clock::now();
    // Unbounded here means bounded by the operation's own timeout.
    const auto deadline = timeout_ms < 0 ? Clock::time_point::max() : start + std::chrono::milliseconds(timeout_ms);
    int fd = -1;
    dg().wait_fd(ep_, &fd);
    int idle = 0;
    while (op->status == PLEXUS_ERR_AGAIN) {
        if (progress() > 0) {
            idle = 0;
            continue;
        }
        const auto now = Clock::now();
        if (now >= deadline) {
            auto it = flights_.find(op->id);
            const std::string what = it != flights_.end() ? describe(op->id, it->second) : "operation " + std::to_string(op->id);
            return Status::error(PLEXUS_ERR_TIMEOUT, "waited " + std::to_string(ms_between(start, now)) + " ms for " +
                                                         what + "; it is still in flight");
        }
        // A few polls catch an answer already on its way; then sleep until a datagram comes or
        // the next timer is due.
        if (++idle < 64) continue;
        const auto until = std::min(deadline, next_wakeup_);
        const int64_t ms = std::clamp<int64_t>(ms_between(now, until) + 1, 0, 10);
        pollfd p{fd, POLLIN, 0};
        (void)::poll(&p, fd >= 0 ? 1 : 0, static_cast<int>(ms));
    }
    if (op->status == PLEXUS_SUCCESS) return Status::ok();
    return Status::error(op->status, op->error);
}

}  // namespace plexus::runtime::dgram
