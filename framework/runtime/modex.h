// Business cards: each component's address for this process, put into the job's key-value store
// at init, committed by the init fence, and fetched from a peer only when it is first contacted.
#pragma once

#include <map>
#include <mutex>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "runtime/backend.h"

namespace plexus::runtime {

class Modex {
public:
    using Card = std::vector<uint8_t>;

    explicit Modex(Backend &backend);

    // "plexus.card.<framework>_<component>"; component is the full name, e.g. "btl_sm".
    static std::string card_key(std::string_view component);

    // Before the init fence the card waits for its commit; after it, it is committed at once so
    // that processes of other namespaces (spawned, connected) can fetch it.
    Status put(std::string_view component, const void *data, size_t len);
    // The init fence: commit every card and fence the namespace (collect: ship all cards to all).
    Status commit_and_fence(bool collect, int timeout_s);
    bool fenced() const { return fenced_; }

    // The card of component for peer; *out stays valid until the Modex is destroyed or forgets
    // peer. A peer of another namespace is asked through its server (direct modex), bounded by
    // timeout_s.
    Status get(const ProcId &peer, std::string_view component, int timeout_s, const Card **out);

    // Cards carried between jobs by other means than the job manager (dpm_ud's datagrams): this
    // process's cards by key, and another process's cards kept so that get finds them without
    // asking its server. A card already known for (peer, key) stays as it is.
    std::vector<std::pair<std::string, Card>> own_cards();
    void remember(const ProcId &peer, const std::string &key, Card card);
    // Drops every card of peer, fetched or remembered (MPI_Comm_disconnect, once no communicator
    // reaches it and its BTL endpoints are deleted: nobody reads them any more). A later get
    // asks its server again. Returns how many were dropped.
    size_t forget(const ProcId &peer);

private:
    Backend &backend_;
    ProcId self_;
    std::mutex lock_;
    bool fenced_ = false;
    std::map<std::string, Card> own_;                        // by key
    std::map<std::pair<ProcId, std::string>, Card> cache_;  // fetched, by peer and key
};

}  // namespace plexus::runtime
