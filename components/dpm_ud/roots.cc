// The two roots' links.
#include "roots.h"

#include <plexus/status.h>

namespace plexus::dpm_ud {

int StarterRoot::hello(Message h, Message *ack, std::string *why) {
    if (!random_bytes(nonce_.data(), nonce_.size())) return *why = "getrandom failed", PLEXUS_ERROR;
    h.nonce = nonce_;
    if (stream_) {
        if (int rc = stream_->send(h, why)) return rc;
        if (int rc = stream_->recv(ack, why)) return rc;
    } else if (int rc = ep_->request(to_, h, timeout_ms_, ack, why)) {
        if (!silence_.empty() && rc == PLEXUS_ERR_TIMEOUT) *why = silence_ + ": " + *why;
        if (!gone_.empty() && rc == PLEXUS_ERR_UNREACH) *why = gone_ + ": " + *why;
        return rc;
    }
    if (ack->kind != Kind::hello_ack || ack->session != h.session)
        return *why = peer() + " answered the hello with " + kind_name(ack->kind), PLEXUS_ERROR;
    session_ = h.session;
    theirs_ = ack->nonce;
    if (!ack->rc) return PLEXUS_SUCCESS;
    uint32_t ip = 0;
    uint16_t udp_port = 0;
    if (stream_ || !udp_parts(to_, &ip, &udp_port))
        return *why = peer() + " asked for a TCP connection but has no IPv4 address here", PLEXUS_ERROR;
    return connect_rc(ip, ack->rc_port, key_, h.session, nonce_, ack->nonce, timeout_ms_, &rc_, why);
}

int StarterRoot::request(const Message &m, Message *reply, std::string *why) {
    Stream *s = rc_ ? rc_.get() : stream_;
    if (s) {
        if (int rc = s->send(m, why)) return rc;
        if (int rc = s->recv(reply, why)) return rc;
    } else if (int rc = ep_->request(to_, m, timeout_ms_, reply, why)) {
        return rc;
    }
    if (reply->session != m.session || static_cast<int>(reply->kind) != static_cast<int>(m.kind) + 1)
        return *why = peer() + " answered " + kind_name(m.kind) + " with " + kind_name(reply->kind), PLEXUS_ERROR;
    return PLEXUS_SUCCESS;
}

PairSecret StarterRoot::pair_secret() const { return dpm_ud::pair_secret(key_, session_, nonce_, theirs_); }

std::string StarterRoot::peer() const {
    if (rc_) return rc_->peer();
    return stream_ ? stream_->peer() : "the answering root at " + address_text(to_);
}

int AnswerRoot::reply_hello(Message ack, bool want_rc, bool *used_rc, std::string *why) {
    *used_rc = false;
    std::unique_ptr<Listener> listener;
    uint32_t ip = 0;
    uint16_t udp_port = 0;
    // In every mode: the pair secret is derived from it (and rc's proofs).
    if (!random_bytes(ack.nonce.data(), ack.nonce.size())) return *why = "getrandom failed", PLEXUS_ERROR;
    ours_ = ack.nonce;
    if (want_rc && ep_ && udp_parts(ep_->address(), &ip, &udp_port)) {
        if (int rc = Listener::open(ip, &listener, why)) return rc;
        ack.rc = 1;
        ack.rc_port = listener->port();
    }
    if (stream_) return stream_->send(ack, why);
    if (int rc = ep_->respond(from_, ack, why)) return rc;
    if (!listener) return PLEXUS_SUCCESS;
    int refused = 0;
    Endpoint *ep = ep_;
    if (int rc = listener->accept(key_, ack.session, hello_.nonce, ack.nonce, timeout_ms_, [ep] { ep->pump(); }, &rc_,
                                  &refused, why))
        return rc;
    *used_rc = true;
    return PLEXUS_SUCCESS;
}

int AnswerRoot::next(Kind k, Message *m, std::string *why) {
    Stream *s = rc_ ? rc_.get() : stream_;
    if (s) {
        if (int rc = s->recv(m, why)) return rc;
    } else {
        const uint64_t session = hello_.session;
        const plexus_dgram_peer_t from = from_;
        auto wanted = [&](const Incoming &in) {
            return in.message.session == session && in.from.sender == from.sender &&
                   in.from.incarnation == from.incarnation;
        };
        Incoming in;
        if (int rc = ep_->next(wanted, nullptr, timeout_ms_, &in, why)) {
            *why = std::string("waiting for the ") + kind_name(k) + " of " + peer() + ": " + *why;
            return rc;
        }
        from_ = in.from;  // the request id to answer
        *m = std::move(in.message);
    }
    if (m->kind != k || m->session != hello_.session)
        return *why = peer() + " sent " + kind_name(m->kind) + " where " + kind_name(k) + " was due", PLEXUS_ERROR;
    return PLEXUS_SUCCESS;
}

int AnswerRoot::reply(const Message &m, std::string *why) {
    Stream *s = rc_ ? rc_.get() : stream_;
    if (s) return s->send(m, why);
    return ep_->respond(from_, m, why);
}

PairSecret AnswerRoot::pair_secret() const {
    return dpm_ud::pair_secret(key_, hello_.session, hello_.nonce, ours_);
}

std::string AnswerRoot::peer() const {
    if (rc_) return "the starting root over TCP";
    if (stream_) return stream_->peer();
    return "the starting root at " + address_text({from_.addr, from_.addr + from_.addr_len});
}

}  // namespace plexus::dpm_ud
