// The meeting of two groups, collective over each (meeting.h has the steps).
#include "meeting.h"

#include "pair_secret.h"
#include "ud_module.h"

#include <time.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <vector>

namespace plexus::dpm_ud {
namespace {

// A safety net: the agreement needs one round unless the groups' free ids keep colliding.
constexpr int kMaxRounds = 1000;
constexpr size_t kMinCards = 4;  // a packed card list holds at least its count

uint64_t now_ms() {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return static_cast<uint64_t>(ts.tv_sec) * 1000u + static_cast<uint64_t>(ts.tv_nsec) / 1000000u;
}

bool is_root(const MeetingContext &c, Group g) { return c.s->coll->comm_rank(g.comm) == g.root; }

int bcast(const MeetingContext &c, Group g, void *buf, int bytes) {
    return c.s->coll->dispatch->bcast(nullptr, buf, bytes, c.s->coll->byte_type, g.root, g.comm);
}

int gather_ints(const MeetingContext &c, Group g, int mine, std::vector<int> *all) {
    all->assign(static_cast<size_t>(c.s->coll->comm_size(g.comm)), 0);
    return c.s->coll->dispatch->gather(nullptr, &mine, sizeof mine, c.s->coll->byte_type, all->data(), sizeof mine,
                                       c.s->coll->byte_type, g.root, g.comm);
}

// Collective: the root's outcome reaches everyone. At the root rc, why and *data are its own;
// elsewhere they are overwritten. Success with the root's *data, or its error class with its
// message set at every process. A failing bcast's class is returned as it is.
int spread(const MeetingContext &c, Group g, int rc, const std::string &why, Bytes *data) {
    // One bcast carries the outcome and a short message whole (every step but the cards): each
    // collective step costs a scheduling round when the node is crowded.
    constexpr size_t kInline = 512;
    Bytes payload;
    if (is_root(c, g)) payload = rc ? Bytes(why.begin(), why.end()) : *data;
    uint8_t first[8 + kInline] = {};
    int32_t head[2] = {rc, static_cast<int32_t>(payload.size())};
    std::memcpy(first, head, sizeof head);
    if (!payload.empty()) std::memcpy(first + sizeof head, payload.data(), std::min(payload.size(), kInline));
    if (int b = bcast(c, g, first, sizeof first)) return b;
    std::memcpy(head, first, sizeof head);
    const size_t len = static_cast<size_t>(head[1]);
    payload.resize(len);
    if (len > 0) std::memcpy(payload.data(), first + sizeof head, std::min(len, kInline));
    if (len > kInline)
        if (int b = bcast(c, g, payload.data() + kInline, static_cast<int>(len - kInline))) return b;
    if (head[0] != PLEXUS_DPM_SUCCESS) {
        c.s->set_error("%s", std::string(payload.begin(), payload.end()).c_str());
        return head[0];
    }
    *data = std::move(payload);
    return PLEXUS_DPM_SUCCESS;
}

// Two encoded messages in one spread: the first's length (4 bytes), the first, the second (which
// may be empty). Each collective step costs the group's waiters a wake-up, late by up to the
// engine's longest sleep, so the starter spreads the hello's and the cards' answers together
// when it can.
Bytes pair_of(const Bytes &first, const Bytes &second) {
    const uint32_t len = static_cast<uint32_t>(first.size());
    Bytes out(sizeof len);
    std::memcpy(out.data(), &len, sizeof len);
    out.insert(out.end(), first.begin(), first.end());
    out.insert(out.end(), second.begin(), second.end());
    return out;
}

void split_pair(const Bytes &in, Bytes *first, Bytes *second) {
    uint32_t len = 0;
    if (in.size() >= sizeof len) std::memcpy(&len, in.data(), sizeof len);
    const size_t a = std::min<size_t>(len, in.size() - std::min(in.size(), sizeof len));
    first->assign(in.begin() + static_cast<std::ptrdiff_t>(std::min(in.size(), sizeof len)),
                  in.begin() + static_cast<std::ptrdiff_t>(std::min(in.size(), sizeof len) + a));
    second->assign(in.begin() + static_cast<std::ptrdiff_t>(std::min(in.size(), sizeof len) + a), in.end());
}

// The pair secret rides in front of a step's data, so that the group learns it without a
// collective step of its own.
Bytes with_secret(const PairSecret &secret, const Bytes &rest) {
    Bytes out(secret.begin(), secret.end());
    out.insert(out.end(), rest.begin(), rest.end());
    return out;
}

Bytes take_secret(const Bytes &in, PairSecret *secret) {
    const size_t n = std::min(in.size(), secret->size());
    std::memcpy(secret->data(), in.data(), n);
    return Bytes(in.begin() + static_cast<std::ptrdiff_t>(n), in.end());
}

Message decoded(const Bytes &data) {
    std::string why;
    // The root decoded it already (or made it): it is whole.
    return decode(data.data(), data.size(), &why).value_or(Message{});
}

// Every process's cards at the root, in rank order, with its name.
int gather_group(const MeetingContext &c, Group g, std::vector<ProcCards> *out) {
    const plexus_dpm_services_t *s = c.s;
    void *blob = nullptr;
    size_t len = 0;
    if (s->own_cards(&blob, &len) != PLEXUS_DPM_SUCCESS) len = 0;  // the root notices the empty list
    std::unique_ptr<void, decltype(&std::free)> hold(blob, &std::free);
    std::vector<int> lens;
    if (int rc = gather_ints(c, g, static_cast<int>(len), &lens)) return rc;
    std::vector<int> displs(lens.size(), 0);
    int total = 0;
    for (size_t r = 0; r < lens.size(); ++r) displs[r] = total, total += lens[r];
    Bytes all(static_cast<size_t>(total));
    if (int rc = s->coll->dispatch->gatherv(nullptr, blob, static_cast<int>(len), s->coll->byte_type, all.data(),
                                            lens.data(), displs.data(), s->coll->byte_type, g.root, g.comm))
        return rc;
    if (!is_root(c, g)) return PLEXUS_DPM_SUCCESS;
    for (size_t r = 0; r < lens.size(); ++r) {
        plexus_dpm_proc_t p{};
        if (int rc = s->local_proc(g.comm, static_cast<int>(r), &p)) return rc;
        const uint8_t *from = all.data() + displs[r];
        out->push_back({p.nspace, p.rank, Bytes(from, from + lens[r])});
    }
    return PLEXUS_DPM_SUCCESS;
}

int check_cards(const std::vector<ProcCards> &group, std::string *why) {
    for (const ProcCards &p : group)
        if (p.cards.size() < kMinCards)
            return *why = "process " + p.nspace + ":" + std::to_string(p.rank) + " of this group has no business cards",
                   PLEXUS_DPM_ERR_INTERN;
    return PLEXUS_DPM_SUCCESS;
}

// Every process keeps the other group's cards and builds; *status and *why at the root say
// whether all of them did.
int build(const MeetingContext &c, Group g, const std::vector<ProcCards> &remote, uint32_t cid,
          const PairSecret &secret, plexus_coll_comm_t **intercomm, int *status, std::string *why) {
    const plexus_dpm_services_t *s = c.s;
    int rc = PLEXUS_DPM_SUCCESS;
    std::vector<plexus_dpm_proc_t> procs;
    for (const ProcCards &p : remote) {
        procs.push_back({p.nspace.c_str(), p.rank});
        if (int e = s->provide_cards(&procs.back(), p.cards.data(), p.cards.size()); e && !rc) rc = e;
    }
    plexus_dpm_remote_group_t rg{};
    rg.struct_size = sizeof rg;
    rg.size = static_cast<uint32_t>(procs.size());
    rg.procs = procs.data();
    rg.context_id = cid;
    rg.pair_secret = secret.data();
    // Called even after a refused card, so that nobody in this group waits for us in it.
    if (int built = s->intercomm_create(g.comm, &rg, intercomm); built && !rc) rc = built;
    std::vector<int> all;
    if (int e = gather_ints(c, g, rc, &all)) return e;
    *status = PLEXUS_DPM_SUCCESS;
    for (size_t r = 0; r < all.size() && is_root(c, g); ++r)
        if (all[r] != PLEXUS_DPM_SUCCESS) {
            *status = all[r];
            *why = "process " + std::to_string(r) + " of this group could not build the inter-communicator (error class " +
                   std::to_string(all[r]) + ")";
            break;
        }
    return PLEXUS_DPM_SUCCESS;
}

bool wants_rc(const MeetingContext &c, uint64_t total) {
    return c.mode == Mode::rc || (c.mode == Mode::automatic && total >= static_cast<uint64_t>(c.auto_threshold));
}

const char *mode_name(Mode m) { return m == Mode::ud ? "ud" : m == Mode::rc ? "rc" : "auto"; }

// The starter root hands its group's cards (moved out of *mine) to the other root, on the agreed
// context id, and returns the other group's answer encoded in *answer; false when the exchange
// failed (*why says how).
bool ask_cards(StarterRoot *root, uint64_t session, uint32_t cid, std::vector<ProcCards> *mine, Bytes *answer,
               std::string *why) {
    Message m, r;
    m.kind = Kind::cards;
    m.session = session;
    m.cid = cid;
    m.procs = std::move(*mine);
    const bool ok = root->request(m, &r, why) == 0;
    if (ok) *answer = encode(r);
    mark("starter root: cards answered");
    return ok;
}

}  // namespace

int meet_as_starter(const MeetingContext &c, Group g, StarterRoot *root, uint64_t session, int status,
                    const std::string &why0, plexus_coll_comm_t **intercomm) {
    const plexus_dpm_services_t *s = c.s;
    const bool at_root = is_root(c, g);
    std::vector<ProcCards> mine;
    mark("starter: meeting begins");
    if (int e = gather_group(c, g, &mine)) return e;
    uint32_t proposal = 0;
    if (int e = s->context_id(g.comm, 0, &proposal)) return e;
    mark("starter: cards gathered, context id %u proposed", proposal);
    int rc = status;
    std::string why = why0;
    Bytes data, ack_bytes, cards_bytes;
    if (at_root && rc == PLEXUS_DPM_SUCCESS) rc = check_cards(mine, &why);
    if (at_root && rc == PLEXUS_DPM_SUCCESS) {
        Message h;
        h.kind = Kind::hello;
        h.session = session;
        h.group_size = static_cast<uint32_t>(mine.size());
        h.group_id = mine.front().nspace;
        h.deadline_ms = now_ms() + static_cast<uint64_t>(c.timeout_ms);
        h.cid = proposal;
        Message ack;
        if (root->hello(h, &ack, &why)) rc = c.fail_class;
        else ack_bytes = encode(ack);
        mark("starter root: hello answered (%s)", rc ? "failed" : root->over_rc() ? "rc" : "ud");
        // The usual case, both groups proposing the same id: the group needs nothing of the
        // hello_ack before the cards are answered too, so it hears both in one step.
        if (rc == PLEXUS_DPM_SUCCESS && ack.cid == proposal &&
            !ask_cards(root, session, proposal, &mine, &cards_bytes, &why))
            rc = c.fail_class;
        data = with_secret(root->pair_secret(), pair_of(ack_bytes, cards_bytes));
    }
    if (int e = spread(c, g, rc, why, &data)) return e;
    PairSecret secret{};
    split_pair(take_secret(data, &secret), &ack_bytes, &cards_bytes);
    const Message ack = decoded(ack_bytes);
    mark("starter: hello_ack spread%s", cards_bytes.empty() ? "" : " with the cards_ack");
    uint32_t theirs = ack.cid;
    for (int round = 0; theirs != proposal; ++round) {
        if (round == kMaxRounds) {
            s->set_error("no context id agreed with the other group after %d rounds", kMaxRounds);
            return PLEXUS_DPM_ERR_INTERN;
        }
        if (int e = s->context_id(g.comm, theirs, &proposal)) return e;
        data.clear();
        if (at_root) {
            Message p, r;
            p.kind = Kind::propose;
            p.session = session;
            p.cid = proposal;
            if (root->request(p, &r, &why)) rc = c.fail_class;
            else data = encode(r);
        }
        if (int e = spread(c, g, rc, why, &data)) return e;
        theirs = decoded(data).cid;
    }
    if (cards_bytes.empty()) {  // the ids differed: the cards go once they agree
        data.clear();
        if (at_root && !ask_cards(root, session, proposal, &mine, &data, &why)) rc = c.fail_class;
        if (int e = spread(c, g, rc, why, &data)) return e;
        cards_bytes = std::move(data);
        mark("starter: the other group's cards spread");
    }
    const Message theirs_cards = decoded(cards_bytes);
    if (theirs_cards.status != PLEXUS_DPM_SUCCESS) {
        s->set_error("the other group could not build its side of the inter-communicator: %s",
                     theirs_cards.text.c_str());
        return theirs_cards.status;
    }
    if (theirs_cards.cid != proposal || theirs_cards.procs.size() != ack.group_size) {
        s->set_error("the other group's cards name context id %u and %zu processes, agreed were %u and %u",
                     theirs_cards.cid, theirs_cards.procs.size(), proposal, ack.group_size);
        return PLEXUS_DPM_ERR_INTERN;
    }
    int built = PLEXUS_DPM_SUCCESS;
    std::string built_why;
    if (int e = build(c, g, theirs_cards.procs, proposal, secret, intercomm, &built, &built_why)) return e;
    mark("starter: inter-communicator built");
    data.clear();
    if (at_root) {
        Message d, r;
        d.kind = Kind::done;
        d.session = session;
        d.status = built;
        d.text = built_why;
        if (root->request(d, &r, &why)) rc = c.fail_class;
        else if (built) rc = built, why = built_why;
        mark("starter root: done answered");
    }
    const int last = spread(c, g, rc, why, &data);
    mark("starter: meeting ends");
    return last;
}

int meet_as_answerer(const MeetingContext &c, Group g, AnswerRoot *root, int status, const std::string &why0,
                     plexus_coll_comm_t **intercomm) {
    const plexus_dpm_services_t *s = c.s;
    const bool at_root = is_root(c, g);
    std::vector<ProcCards> mine;
    mark("answerer: meeting begins");
    if (int e = gather_group(c, g, &mine)) return e;
    int rc = status;
    std::string why = why0;
    Bytes data;
    if (at_root && rc == PLEXUS_DPM_SUCCESS) rc = check_cards(mine, &why);
    if (at_root && rc == PLEXUS_DPM_SUCCESS) data = encode(root->hello());
    if (int e = spread(c, g, rc, why, &data)) return e;
    const Message hello = decoded(data);
    mark("answerer: cards gathered, hello spread");
    uint32_t ours = 0;
    if (int e = s->context_id(g.comm, hello.cid, &ours)) return e;
    mark("answerer: context id %u proposed", ours);
    data.clear();
    if (at_root) {
        const uint64_t total = uint64_t(hello.group_size) + mine.size();
        Message a;
        a.kind = Kind::hello_ack;
        a.session = hello.session;
        a.group_size = static_cast<uint32_t>(mine.size());
        a.group_id = mine.front().nspace;
        a.cid = ours;
        bool used_rc = false;
        if (root->reply_hello(a, wants_rc(c, total), &used_rc, &why)) rc = c.fail_class;
        else data = with_secret(root->pair_secret(), {});
        c.host->log(c.self, PLEXUS_LOG_DECISION, "meeting %016llx with %s (%u processes of %s, %zu here): %s (dpm_ud_mode %s, auto threshold %d)",
                    static_cast<unsigned long long>(hello.session), root->peer().c_str(), hello.group_size,
                    hello.group_id.c_str(), mine.size(), used_rc ? "rc: the rest over TCP" : "ud: datagrams only",
                    mode_name(c.mode), c.auto_threshold);
        mark("answerer root: hello answered");
    }
    if (int e = spread(c, g, rc, why, &data)) return e;
    PairSecret secret{};
    take_secret(data, &secret);
    uint32_t theirs = hello.cid;
    for (int round = 0; theirs != ours; ++round) {
        if (round == kMaxRounds) {
            s->set_error("no context id agreed with the other group after %d rounds", kMaxRounds);
            return PLEXUS_DPM_ERR_INTERN;
        }
        Message p;
        data.clear();
        if (at_root) {
            if (root->next(Kind::propose, &p, &why)) rc = c.fail_class;
            else data = encode(p);
        }
        if (int e = spread(c, g, rc, why, &data)) return e;
        theirs = decoded(data).cid;
        if (int e = s->context_id(g.comm, theirs, &ours)) return e;
        if (at_root) {
            Message r;
            r.kind = Kind::propose_ack;
            r.session = hello.session;
            r.cid = ours;
            if (root->reply(r, &why)) rc = c.fail_class;  // spread with the next step
        }
    }
    data.clear();
    if (at_root && rc == PLEXUS_DPM_SUCCESS) {
        Message m;
        if (root->next(Kind::cards, &m, &why)) rc = c.fail_class;
        else data = encode(m);
        mark("answerer root: cards arrived");
    }
    if (int e = spread(c, g, rc, why, &data)) return e;
    const Message cards = decoded(data);
    mark("answerer: the other group's cards spread");
    if (cards.cid != ours || cards.procs.size() != hello.group_size) {
        s->set_error("the other group's cards name context id %u and %zu processes, agreed were %u and %u", cards.cid,
                     cards.procs.size(), ours, hello.group_size);
        return PLEXUS_DPM_ERR_INTERN;
    }
    int built = PLEXUS_DPM_SUCCESS;
    std::string built_why;
    if (int e = build(c, g, cards.procs, ours, secret, intercomm, &built, &built_why)) return e;
    mark("answerer: inter-communicator built");
    data.clear();
    if (at_root) {
        Message r;
        r.kind = Kind::cards_ack;
        r.session = hello.session;
        r.cid = ours;
        r.procs = std::move(mine);
        r.status = built;
        r.text = built_why;
        if (root->reply(r, &why)) rc = c.fail_class;
        else if (built) rc = built, why = built_why;
    }
    if (int e = spread(c, g, rc, why, &data)) return e;
    data.clear();
    if (at_root) {
        Message d;
        if (root->next(Kind::done, &d, &why)) rc = c.fail_class;
        else data = encode(d);
        mark("answerer root: done arrived");
    }
    if (int e = spread(c, g, rc, why, &data)) return e;
    const Message done = decoded(data);
    mark("answerer: done spread");
    if (done.status != PLEXUS_DPM_SUCCESS) {
        s->set_error("the other group could not build its side of the inter-communicator: %s", done.text.c_str());
        return done.status;
    }
    if (at_root) {
        Message r;
        r.kind = Kind::done_ack;
        r.session = hello.session;
        std::string ignored;
        // Retransmitted until acknowledged (the endpoint lingers for it); a failure here shows
        // as the other root's timeout, which names us.
        root->reply(r, &ignored);
    }
    return PLEXUS_DPM_SUCCESS;
}

}  // namespace plexus::dpm_ud
