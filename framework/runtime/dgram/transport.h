// What the datagram endpoint needs of a network: raw datagrams to and from opaque addresses,
// multicast groups, and the largest datagram. UDP/IPv4 and InfiniBand UD implement it.
#pragma once

#include <sys/uio.h>

#include <cstdint>
#include <vector>

#include "runtime/status.h"

namespace plexus::runtime::dgram {

using Address = std::vector<uint8_t>;

// The first byte of every address: which transport's it is.
enum AddressKind : uint8_t { kAddressUdp4 = 1, kAddressIbUd = 2 };

struct RawDatagram {
    bool arrived = false;    // false: nothing was waiting (a datagram may be empty)
    size_t len = 0;
    bool multicast = false;  // arrived through a joined group
    Address from;            // the sending endpoint's address
};

class Transport {
public:
    virtual ~Transport() = default;

    virtual Address local_address() const = 0;
    // The longest datagram sent, in bytes (what the link carries without IP fragmentation).
    virtual size_t max_datagram() const = 0;
    virtual size_t link_mtu() const = 0;

    // Sends one datagram, gathered from iov, to a peer's or a group's address.
    virtual Status send(const Address &to, const struct iovec *iov, size_t n) = 0;
    // Reads one datagram into buf; ok with out->arrived false when none is waiting. *kernel_drops grows
    // by what the transport knows was lost before it could be read.
    virtual Status receive(uint8_t *buf, size_t cap, RawDatagram *out, uint64_t *kernel_drops) = 0;

    // The group address for 32 bytes of hash (derived from the key and the group's name).
    virtual Address group_address(const uint8_t hash[32]) const = 0;
    virtual Status join(const Address &group) = 0;
    virtual Status leave(const Address &group) = 0;

    // Readable when datagrams may be waiting.
    virtual int wait_fd() const = 0;

    // Appends the addresses where, as the network told us since the last call (ICMP port
    // unreachable), nothing listens any more: what was sent there is lost, and so is what will be.
    // Transports that cannot tell append nothing.
    virtual void take_unreachable(std::vector<Address> *out) { (void)out; }
};

}  // namespace plexus::runtime::dgram
