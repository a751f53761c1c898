#include "wire.h"

#include <cstring>

namespace plexus::btl_openib {

bool parse_card(const void *data, size_t len, Card *out, std::string *why) {
    if (!data || len != sizeof(Card)) {
        *why = "card of " + std::to_string(len) + " bytes, expected " + std::to_string(sizeof(Card));
        return false;
    }
    std::memcpy(out, data, sizeof *out);
    if (out->magic != kCardMagic) {
        *why = "not a btl_openib card (bad magic)";
        return false;
    }
    if (out->version != kCardVersion) {
        *why = "card version " + std::to_string(out->version) + ", this build reads " + std::to_string(kCardVersion);
        return false;
    }
    if (out->little_endian != 1) {
        *why = "the peer is big-endian; btl_openib's wire format is little-endian only";
        return false;
    }
    if (out->dgram_len == 0 || out->dgram_len > sizeof out->dgram) {
        *why = "card without a connect address";
        return false;
    }
    return true;
}

bool parse_connect(const void *data, size_t len, ConnectMsg *out, std::string *why) {
    if (!data || len != sizeof(ConnectMsg)) {
        *why = "connect message of " + std::to_string(len) + " bytes, expected " + std::to_string(sizeof(ConnectMsg));
        return false;
    }
    std::memcpy(out, data, sizeof *out);
    if (out->magic != kConnectMagic || out->type < kConnRequest || out->type > kConnReady) {
        *why = "not a btl_openib connect message";
        return false;
    }
    out->nspace[sizeof out->nspace - 1] = '\0';
    return true;
}

QpAddress address_of(const ConnectMsg &m) {
    QpAddress a;
    a.qpn = m.qpn;
    a.psn = m.psn;
    a.lid = m.lid;
    std::memcpy(a.gid, m.gid, sizeof a.gid);
    return a;
}

}  // namespace plexus::btl_openib
