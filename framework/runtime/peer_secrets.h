// The secrets this process shares with processes of other jobs: one per meeting of two groups
// (MPI_Comm_spawn, accept/connect, join), agreed by the dpm component and registered by the core
// when it builds the inter-communicator, read by BTLs that authenticate connections between jobs
// (host API peer_secrets, btl_tcp). The job secret cannot serve there: every job has its own, and
// handing it to another job would let that job pass for this one to every third job.
//
// Kept per remote process, not per namespace: two meetings may join different subsets of the
// same two jobs, and only the processes of one meeting hold its secret. A process reached by
// several meetings keeps each secret (newest first), so that whichever a peer proves is known.
// Forgotten with the process's business cards, once no communicator reaches it (Modex::forget).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>
#include <vector>

#include "runtime/job_info.h"

namespace plexus::runtime {

class PeerSecrets {
public:
    static constexpr size_t kBytes = 32;  // PLEXUS_PEER_SECRET_LEN
    // Meetings with one process remembered at once: connect/accept again and again without a
    // disconnect must not grow the table without bound. The oldest goes first; a peer proves
    // the newest, which both sides registered last.
    static constexpr size_t kMaxPerPeer = 16;
    using Secret = std::array<uint8_t, kBytes>;

    PeerSecrets() = default;
    PeerSecrets(const PeerSecrets &) = delete;
    PeerSecrets &operator=(const PeerSecrets &) = delete;
    ~PeerSecrets();  // wipes every secret

    // Adds s as peer's newest secret (one held already moves to the front).
    void add(const ProcId &peer, const Secret &s);
    // peer's secrets, newest first; empty when none.
    std::vector<Secret> of(const ProcId &peer) const;
    // Wipes and drops every secret of peer; returns how many there were.
    size_t forget(const ProcId &peer);
    size_t peers() const;

private:
    mutable std::mutex lock_;
    std::map<ProcId, std::vector<Secret>> by_peer_;  // newest first
};

}  // namespace plexus::runtime
