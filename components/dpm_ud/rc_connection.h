// rc mode's reliable connection between the two roots (the paper's RC QP, a TCP connection
// here): the answering root listens on the IPv4 address of its datagram endpoint and names the
// port in its hello_ack; the starting root connects. Each side proves it holds the meeting's key
// before anything else is read: MAC = HMAC-SHA256(key, role | session | starter's nonce |
// answerer's nonce), the starter's first, so a stranger on the port gets nothing but a closed
// connection, and a recorded proof is worthless for another meeting (new nonces).
#pragma once

#include <functional>
#include <memory>
#include <string>

#include "address.h"
#include "stream.h"
#include "wire.h"

namespace plexus::dpm_ud {

using Mac = std::array<uint8_t, 32>;
// role: "connect" (the starter's proof) or "accept" (the answerer's).
Mac proof(const Key &key, const char *role, uint64_t session, const Nonce &starter, const Nonce &answerer);

class Listener {
public:
    // Listens on ipv4 (network order), any free port. An error class and *why otherwise.
    static int open(uint32_t ipv4, std::unique_ptr<Listener> *out, std::string *why);
    ~Listener();
    uint16_t port() const { return port_; }
    // Accepts connections until one proves key for this meeting (others are closed, counted in
    // *refused) or timeout_ms passes; then proves itself to it. pump (may be empty) runs every
    // few milliseconds meanwhile: the datagram endpoint whose hello_ack named this port must go
    // on retransmitting it until the starter has it.
    int accept(const Key &key, uint64_t session, const Nonce &starter, const Nonce &answerer, int timeout_ms,
               const std::function<void()> &pump, std::unique_ptr<Stream> *out, int *refused, std::string *why);

private:
    int fd_ = -1;
    uint16_t port_ = 0;
};

// The starter's side: connects to ipv4:port, proves itself and checks the answerer's proof.
int connect_rc(uint32_t ipv4, uint16_t port, const Key &key, uint64_t session, const Nonce &starter,
               const Nonce &answerer, int timeout_ms, std::unique_ptr<Stream> *out, std::string *why);

}  // namespace plexus::dpm_ud
