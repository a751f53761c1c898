// Where a root is reached: its datagram endpoint's address (as plexus/dgram.h makes it: IP and
// UDP port, or LID, QPN and GID) and the key both sides authenticate with, written as text for a
// port name or the spawned children's environment:
//   plexus-ud:<address hex>:<key hex>            (a port; the key is the port's own)
//   <address hex>:<key hex>:<session hex>        (PLEXUS_DPM_UD_PARENT: a spawn's)
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace plexus::dpm_ud {

constexpr size_t kKeyBytes = 32;
using Key = std::array<uint8_t, kKeyBytes>;

struct Reach {
    std::vector<uint8_t> address;  // dgram address bytes
    Key key{};
};

std::string hex(const uint8_t *p, size_t n);
bool unhex(const std::string &text, std::vector<uint8_t> *out);

std::string format_port(const Reach &r);
std::optional<Reach> parse_port(const std::string &text, std::string *why);

// The spawn's: the parent root's reach and the spawn's session.
std::string format_parent(const Reach &r, uint64_t session);
std::optional<Reach> parse_parent(const std::string &text, uint64_t *session, std::string *why);

// "127.0.0.1:40123", "LID 7 QPN 0x1a2b": for messages naming a peer (docs/datagrams.md,
// Addresses). The IPv4 address and UDP port when the address is a UDP one.
std::string address_text(const std::vector<uint8_t> &a);
bool udp_parts(const std::vector<uint8_t> &a, uint32_t *ipv4_network_order, uint16_t *port);

// Random bytes from getrandom(2) (false: the kernel had none).
bool random_bytes(void *p, size_t n);

}  // namespace plexus::dpm_ud
