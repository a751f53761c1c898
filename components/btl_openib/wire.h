// btl_openib's formats on the wire: the header of every send/receive message, the business card
// (the port's address and where to send connect requests), the connect protocol's messages and
// the eager RDMA channel's control messages. Fixed-size, little-endian hosts only (as every HCA
// host today; the card says so and a peer of the other order is refused).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include <plexus/btl.h>
#include <plexus/dgram.h>

#include "conn_state.h"

namespace plexus::btl_openib {

// ---- send/receive messages ----
enum : uint8_t {
    kKindData = 0,    // an active message (upper layer's tag, or a channel control tag)
    kKindCredit = 1,  // only the credits in the header: spends a control credit
};

struct MsgHeader {
    uint8_t tag;
    uint8_t kind;
    uint8_t ctl_credits;    // piggybacked credits (credits.h)
    uint8_t rdma_gen;       // the generation (low byte) of the ring rdma_credits belong to
    uint16_t credits;
    uint16_t rdma_credits;  // slots of the eager RDMA ring the receiver holds into the sender
};
static_assert(sizeof(MsgHeader) == 8, "part of the wire format");

// ---- eager RDMA channel control, on internal tags through the send/receive path ----
//   CHAN_REQUEST  sender -> receiver: may I have a ring in your memory?
//   CHAN_GRANT    receiver -> sender: yes: address, rkey, slots, slot size
//   CHAN_REFUSE   receiver -> sender: no room (btl_openib_eager_rdma_num reached, or 0)
//   CHAN_DROP     sender -> receiver: I stopped writing; drain the ring and free it
enum : uint8_t {
    kTagChanRequest = PLEXUS_BTL_TAG_INTERNAL_FIRST,
    kTagChanGrant,
    kTagChanRefuse,
    kTagChanDrop,
};

struct ChanGrant {
    uint64_t addr;
    uint32_t rkey;
    uint32_t slots;
    uint32_t slot_bytes;
    uint32_t generation;  // which grant this is (a DROP names it; a stale one is ignored)
};

struct ChanDrop {
    uint32_t generation;
};

// ---- the business card ----
inline constexpr uint32_t kCardMagic = 0x4F504942;  // "OPIB"
inline constexpr uint16_t kCardVersion = 1;

struct Card {
    uint32_t magic;
    uint16_t version;
    uint8_t little_endian;
    uint8_t link_layer;  // LinkLayer
    uint16_t lid;
    uint8_t port;
    uint8_t mtu_enum;    // ibv_mtu of the port
    uint8_t gid[16];
    uint64_t subnet_prefix;  // the GID's upper half: ports on other subnets need routing
    uint32_t dgram_len;      // the connect endpoint's address (host->dgram)
    uint32_t reserved;
    uint8_t dgram[PLEXUS_DGRAM_ADDR_MAX];
    char host[64];  // the host name, for messages about this peer
};

// Checks a card from the modex: false with *why when it is not one this build reads.
bool parse_card(const void *data, size_t len, Card *out, std::string *why);

// ---- the connect protocol, over reliable datagrams (conn_state.h) ----
inline constexpr uint32_t kConnectMagic = 0x4F50434E;  // "OPCN"
enum : uint8_t { kConnRequest = 1, kConnAccept = 2, kConnReady = 3 };

struct ConnectMsg {
    uint32_t magic;
    uint8_t type;
    uint8_t reserved[3];
    uint32_t rank;  // the sender's, in nspace
    uint32_t to_rank;
    uint32_t qpn;
    uint32_t psn;
    uint16_t lid;
    uint16_t reserved2;
    uint32_t recv_data;  // receive buffers posted for the peer's data messages (its credits)
    uint32_t recv_ctl;   // and for its credit messages
    uint8_t gid[16];
    char nspace[PLEXUS_NSPACE_MAX];
};

bool parse_connect(const void *data, size_t len, ConnectMsg *out, std::string *why);
QpAddress address_of(const ConnectMsg &m);

}  // namespace plexus::btl_openib
