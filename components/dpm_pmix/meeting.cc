// The meeting of two groups.
#include "meeting.h"

#include <sys/random.h>

#include <optional>
#include <string>
#include <vector>

#include "handshake_message.h"
#include "pmix_module.h"

namespace plexus::dpm_pmix {
namespace {

// A safety net: the agreement needs one or two rounds unless the groups' ids keep colliding.
constexpr int kMaxRounds = 1000;

int bcast(const plexus_dpm_services_t *s, void *buf, int bytes, int root, plexus_coll_comm_t *comm) {
    return s->coll->dispatch->bcast(nullptr, buf, bytes, s->coll->byte_type, root, comm);
}

std::vector<Proc> local_group(const plexus_dpm_services_t *s, plexus_coll_comm_t *comm) {
    std::vector<Proc> g;
    const int n = s->coll->comm_size(comm);
    for (int r = 0; r < n; ++r) {
        plexus_dpm_proc_t p{};
        if (s->local_proc(comm, r, &p) == PLEXUS_DPM_SUCCESS) g.push_back({p.nspace, p.rank});
    }
    return g;
}

// Both groups build the inter-communicator (and with it their BTL endpoints to each other)
// before either returns, so that no data message reaches a process that does not know its
// sender yet: the side that agreed last builds first and then sends its final proposal, the
// other builds on reading it and answers; the first returns on the answer.
int conclude(const plexus_dpm_services_t *s, Channel *ch, bool agreed_here, int root, plexus_coll_comm_t *comm,
             const std::vector<Proc> &remote, const std::vector<uint8_t> &secret, uint32_t cid,
             plexus_coll_comm_t **intercomm, const std::string &final_message = "") {
    const bool is_root = s->coll->comm_rank(comm) == root;
    std::vector<plexus_dpm_proc_t> procs;
    for (const Proc &p : remote) procs.push_back({p.nspace.c_str(), p.rank});
    plexus_dpm_remote_group_t rg{};
    rg.struct_size = sizeof rg;
    rg.size = static_cast<uint32_t>(procs.size());
    rg.procs = procs.data();
    rg.context_id = cid;
    rg.pair_secret = secret.size() == kKeyBytes ? secret.data() : nullptr;
    const int built = s->intercomm_create(comm, &rg, intercomm);
    int rc = PLEXUS_DPM_SUCCESS;
    std::string answer;
    if (is_root) {
        mark("meeting: inter-communicator built on id %u", cid);
        // Whatever happened here, the other side hears it: it would wait for us otherwise.
        rc = ch->send(agreed_here ? final_message : encode({built ? UINT32_MAX : cid, {}, {}}));
        if (rc == PLEXUS_DPM_SUCCESS && agreed_here) rc = ch->recv(&answer);
        if (rc == PLEXUS_DPM_SUCCESS && agreed_here) {
            std::string why;
            std::optional<HandshakeMessage> m = decode(answer, &why);
            if (!m || m->cid != cid) {
                s->set_error("the other group could not build its side of the inter-communicator");
                rc = PLEXUS_DPM_ERR_INTERN;
            }
        }
        if (rc != PLEXUS_DPM_SUCCESS) ch->abandon();
    }
    std::string none;
    share(s, root, comm, &rc, &none);
    if (built) return built;
    // The communicator exists here but the other side failed: nobody will use it, and the MPI
    // layer frees it with the error (dpm::meeting_result).
    return rc;
}

// This root's half of the pair secret (handshake_message.h); empty when the kernel has no
// randomness, and then the groups share no secret (btl_tcp refuses to connect them, named).
std::vector<uint8_t> random_half() {
    std::vector<uint8_t> half(kKeyBytes);
    size_t got = 0;
    while (got < half.size()) {
        const ssize_t n = ::getrandom(half.data() + got, half.size() - got, 0);
        if (n <= 0) return {};
        got += static_cast<size_t>(n);
    }
    return half;
}

// At the root: the other side's first message with its half of the secret replaced by the
// secret itself (both halves XORed), which the root then spreads in its group as it came.
std::string with_pair_secret(const std::string &in, const std::vector<uint8_t> &mine) {
    std::string why;
    std::optional<HandshakeMessage> m = decode(in, &why);
    if (!m || m->key.empty()) return in;  // malformed (refused after the spread) or a later message
    if (mine.size() != m->key.size()) {
        m->key.clear();
        return encode(*m);
    }
    for (size_t i = 0; i < mine.size(); ++i) m->key[i] ^= mine[i];
    return encode(*m);
}

}  // namespace

int share(const plexus_dpm_services_t *s, int root, plexus_coll_comm_t *comm, int *rc, std::string *text) {
    int32_t head[2] = {*rc, static_cast<int32_t>(text->size())};
    if (int b = bcast(s, head, sizeof head, root, comm)) return *rc = b;
    *rc = head[0];
    if (*rc != PLEXUS_DPM_SUCCESS) return *rc;
    text->resize(static_cast<size_t>(head[1]));
    if (head[1] > 0)
        if (int b = bcast(s, text->data(), head[1], root, comm)) return *rc = b;
    return PLEXUS_DPM_SUCCESS;
}

int meet(const plexus_dpm_services_t *s, Channel *ch, bool starts, int root, plexus_coll_comm_t *comm,
         plexus_coll_comm_t **intercomm) {
    const bool is_root = s->coll->comm_rank(comm) == root;
    const std::vector<Proc> group = local_group(s, comm);
    uint32_t mine = UINT32_MAX;  // our last proposal
    std::string out;             // the root's next message
    bool group_sent = false;
    const std::vector<uint8_t> half = is_root ? random_half() : std::vector<uint8_t>{};
    if (starts) {
        if (int rc = s->context_id(comm, 0, &mine)) return rc;
        out = encode({mine, group, half});
        group_sent = true;
    }
    std::vector<Proc> remote;
    std::vector<uint8_t> secret;
    for (int round = 0; round < kMaxRounds; ++round) {
        int rc = PLEXUS_DPM_SUCCESS;
        std::string in;
        if (is_root) {
            if (!out.empty()) rc = ch->send(out);
            if (!out.empty()) mark("meeting: sent proposal %u", mine);
            if (rc == PLEXUS_DPM_SUCCESS) rc = ch->recv(&in);
            if (rc == PLEXUS_DPM_SUCCESS) in = with_pair_secret(in, half);
            if (rc == PLEXUS_DPM_SUCCESS) mark("meeting: received the other side's message");
            if (rc != PLEXUS_DPM_SUCCESS) ch->abandon();
        }
        if (share(s, root, comm, &rc, &in)) return rc;
        std::string why;
        std::optional<HandshakeMessage> m = decode(in, &why);
        if (!m) {
            s->set_error("the other group's root sent a malformed message (%s)", why.c_str());
            return PLEXUS_DPM_ERR_INTERN;
        }
        if (remote.empty()) remote = std::move(m->group);
        if (secret.empty()) secret = std::move(m->key);
        if (remote.empty()) {
            s->set_error("the other group's first message names no process");
            return PLEXUS_DPM_ERR_INTERN;
        }
        const uint32_t theirs = m->cid;
        if (theirs == mine) return conclude(s, ch, false, root, comm, remote, secret, mine, intercomm);
        if (int c = s->context_id(comm, theirs, &mine)) return c;
        out = group_sent ? encode({mine, {}, {}}) : encode({mine, group, half});
        group_sent = true;
        if (mine == theirs) return conclude(s, ch, true, root, comm, remote, secret, mine, intercomm, out);
    }
    s->set_error("no context id agreed after %d rounds", kMaxRounds);
    return PLEXUS_DPM_ERR_INTERN;
}

}  // namespace plexus::dpm_pmix
