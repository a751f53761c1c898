// Datagrams over UDP/IPv4 on one interface: a unicast socket bound to the interface's address
// (which also sends multicast, out of that interface, looped back to this host), and one socket
// per joined group, all read through one epoll descriptor.
#pragma once

#include <netinet/in.h>

#include <map>
#include <memory>

#include "runtime/dgram/dgram_params.h"
#include "runtime/dgram/interface_lookup.h"
#include "runtime/dgram/transport.h"
#include "runtime/unique_fd.h"

namespace plexus::runtime::dgram {

// Address bytes of UDP/IPv4: kind, version, port (big-endian), IPv4 address (network order).
struct UdpAddress {
    static constexpr size_t kBytes = 8;
    static Address encode(const sockaddr_in &sa);
    static bool decode(const Address &a, sockaddr_in *sa);
};

class UdpTransport final : public Transport {
public:
    static Status open(const Settings &settings, const std::string &interface, uint16_t port,
                       std::unique_ptr<Transport> *out);

    Address local_address() const override { return UdpAddress::encode(local_); }
    size_t max_datagram() const override { return max_datagram_; }
    size_t link_mtu() const override { return iface_.mtu; }
    Status send(const Address &to, const struct iovec *iov, size_t n) override;
    Status receive(uint8_t *buf, size_t cap, RawDatagram *out, uint64_t *kernel_drops) override;
    Address group_address(const uint8_t hash[32]) const override;
    Status join(const Address &group) override;
    Status leave(const Address &group) override;
    int wait_fd() const override { return epoll_.get(); }
    void take_unreachable(std::vector<Address> *out) override;

private:
    struct Socket {
        UniqueFd fd;
        uint32_t overflow_seen = 0;  // the kernel's SO_RXQ_OVFL count last read
        bool multicast = false;
    };
    UdpTransport() = default;
    Status add_socket(std::unique_ptr<Socket> s, const Address &key);
    Status read_one(Socket &s, uint8_t *buf, size_t cap, RawDatagram *out, uint64_t *kernel_drops);
    // Reads the socket's error queue (IP_RECVERR): port unreachable reports into unreachable_.
    void read_errors(Socket &s);

    Ipv4Interface iface_;
    sockaddr_in local_{};
    size_t max_datagram_ = 0;
    int ttl_ = 1;
    size_t receive_buffer_ = 0;
    UniqueFd epoll_;
    std::unique_ptr<Socket> unicast_;
    std::map<Address, std::unique_ptr<Socket>> groups_;
    std::vector<Socket *> ready_;  // sockets epoll found readable, not yet drained
    std::vector<Address> unreachable_;  // reported by read_errors, not yet taken
};

}  // namespace plexus::runtime::dgram
