// How the two roots talk during a meeting. The starting root (the spawned job's, a connector's)
// sends its hello over datagrams to the answering root's endpoint (or over the joined socket);
// the answering root's hello_ack says whether the rest goes over datagrams too (ud mode) or over
// a TCP connection set up right then (rc mode, rc_connection.h). Requests and their responses
// after that go over whichever link the hello chose.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "address.h"
#include "endpoint.h"
#include "pair_secret.h"
#include "rc_connection.h"
#include "stream.h"
#include "wire.h"

namespace plexus::dpm_ud {

class StarterRoot {
public:
    // Datagrams to `to` through ep, authenticated with key.
    StarterRoot(Endpoint *ep, std::vector<uint8_t> to, const Key &key, int timeout_ms)
        : ep_(ep), to_(std::move(to)), key_(key), timeout_ms_(timeout_ms) {}
    // Everything over a socket (join).
    StarterRoot(Stream *stream, int timeout_ms) : stream_(stream), timeout_ms_(timeout_ms) {}

    // What a hello nobody answers means, put before the datagram layer's account of it
    // ("nobody accepted on port ... within N ms").
    void on_silence(std::string meaning) { silence_ = std::move(meaning); }
    // What a hello to an address where nothing listens any more means (the other host's ICMP
    // port unreachable: a closed port, an ended process), put before the layer's account of it.
    void on_gone(std::string meaning) { gone_ = std::move(meaning); }
    // The hello (its nonce filled here); on an ack asking for rc, connects and proves itself.
    int hello(Message h, Message *ack, std::string *why);
    int request(const Message &m, Message *reply, std::string *why);
    std::string peer() const;
    bool over_rc() const { return rc_ != nullptr; }
    // The groups' shared secret (pair_secret.h), once the hello was answered.
    PairSecret pair_secret() const;

private:
    Endpoint *ep_ = nullptr;
    std::vector<uint8_t> to_;
    Key key_{};
    Stream *stream_ = nullptr;
    std::unique_ptr<Stream> rc_;
    Nonce nonce_{};
    uint64_t session_ = 0;
    Nonce theirs_{};  // the hello_ack's
    std::string silence_;
    std::string gone_;
    int timeout_ms_;
};

class AnswerRoot {
public:
    // A hello that arrived at ep (its sender is the only peer heard from now on).
    AnswerRoot(Endpoint *ep, Incoming hello, const Key &key, int timeout_ms)
        : ep_(ep), from_(hello.from), hello_(std::move(hello.message)), key_(key), timeout_ms_(timeout_ms) {}
    // A hello read from a socket (join).
    AnswerRoot(Stream *stream, Message hello, int timeout_ms)
        : stream_(stream), hello_(std::move(hello)), timeout_ms_(timeout_ms) {}

    const Message &hello() const { return hello_; }
    // Answers the hello; with want_rc (and a datagram endpoint on an IPv4 interface) opens the
    // TCP connection first and says so in the ack (*used_rc), then waits for the starter on it.
    int reply_hello(Message ack, bool want_rc, bool *used_rc, std::string *why);
    // The next request of this meeting, which must be of kind k.
    int next(Kind k, Message *m, std::string *why);
    int reply(const Message &m, std::string *why);
    std::string peer() const;
    // The groups' shared secret (pair_secret.h), once the hello was answered.
    PairSecret pair_secret() const;

private:
    Endpoint *ep_ = nullptr;
    plexus_dgram_peer_t from_{};
    Stream *stream_ = nullptr;
    Message hello_;
    Key key_{};
    Nonce ours_{};  // the hello_ack's
    std::unique_ptr<Stream> rc_;
    int timeout_ms_;
};

}  // namespace plexus::dpm_ud
