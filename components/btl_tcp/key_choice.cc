// The secret a connection proves, by the other process's job.
#include "key_choice.h"

#include <plexus/sdk/hmac_sha256.hpp>
#include <plexus/sdk/host.hpp>

#include <vector>

namespace plexus::btl_tcp {
namespace {

// More than the core keeps per process (runtime/peer_secrets.h): every one is looked at.
constexpr size_t kMaxSecrets = 32;

std::string proc_text(const std::string &nspace, uint32_t rank) {
    return "rank " + std::to_string(rank) + " of job " + nspace;
}

// The secrets shared with (nspace, rank), newest first; empty and *why when there are none.
std::vector<uint8_t> shared_secrets(const plexus_host_api_t *host, const std::string &nspace, uint32_t rank,
                                    size_t *count, std::string *why) {
    *count = 0;
    if (!PLEXUS_HOST_HAS(host, peer_secrets)) {
        *why = "this core (host API before 1.6) shares no secret with other jobs, so btl_tcp cannot prove a "
               "connection with " + proc_text(nspace, rank);
        return {};
    }
    std::vector<uint8_t> buf(kMaxSecrets * PLEXUS_PEER_SECRET_LEN);
    if (host->peer_secrets(nspace.c_str(), rank, buf.data(), kMaxSecrets, count) != PLEXUS_SUCCESS || *count == 0) {
        *count = 0;
        *why = "no secret shared with job " + nspace + " (" + proc_text(nspace, rank) +
               "): no MPI_Comm_spawn, accept/connect or join of this process met it, or it was disconnected";
        return {};
    }
    if (*count > kMaxSecrets) *count = kMaxSecrets;
    buf.resize(*count * PLEXUS_PEER_SECRET_LEN);
    return buf;
}

PairKey key_of(const uint8_t *secret) {
    auto k = std::make_shared<HandshakeKey>();
    if (!k->derive(secret, PLEXUS_PEER_SECRET_LEN)) return nullptr;
    return k;
}

}  // namespace

bool key_to(const plexus_host_api_t *host, const std::string &own, const std::string &nspace, uint32_t rank,
            PairKey *key, uint8_t (&id)[kKeyIdBytes], std::string *why) {
    key->reset();
    std::fill(std::begin(id), std::end(id), uint8_t{0});
    if (nspace == own) return true;
    size_t count = 0;
    std::vector<uint8_t> secrets = shared_secrets(host, nspace, rank, &count, why);
    if (count == 0) return false;
    *key = key_of(secrets.data());
    sdk::secure_zero(secrets.data(), secrets.size());
    if (!*key || !(*key)->key_id(id)) return *why = "cannot derive the key shared with job " + nspace, false;
    return true;
}

bool key_from(const plexus_host_api_t *host, const std::string &own, const Hello &h, PairKey *key, std::string *why) {
    key->reset();
    const std::string from = h.from_nspace;
    if (from == own) return true;
    size_t count = 0;
    std::vector<uint8_t> secrets = shared_secrets(host, from, h.from_rank, &count, why);
    for (size_t i = 0; i < count && !*key; ++i) {
        PairKey k = key_of(secrets.data() + i * PLEXUS_PEER_SECRET_LEN);
        uint8_t id[kKeyIdBytes];
        if (k && k->key_id(id) && sdk::HmacSha256::equal(id, h.key_id, sizeof id)) *key = std::move(k);
    }
    sdk::secure_zero(secrets.data(), secrets.size());
    if (*key) return true;
    if (count > 0)
        *why = proc_text(from, h.from_rank) + " named a key that is none of the " + std::to_string(count) +
               " secret(s) shared with its job (one of an earlier meeting, since disconnected?)";
    return false;
}

}  // namespace plexus::btl_tcp
