#include "shm_two_level.h"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstring>

#include <plexus/shm.h>
#include <plexus/sdk/shared_word.hpp>

#include "shm_setup.h"
#include "shm_tags.h"

namespace plexus::coll_shm_inter {
namespace {

constexpr const char *kLabel = "coll_shm";

// Node groups alive in this process: each holds a segment, so their number is bounded
// (coll_shm_inter_max_groups) for programs that run collectives on thousands of communicators.
std::atomic<int> g_live_groups{0};

struct FlagWait {
    const uint64_t *word;
    uint64_t target;
};

int flag_reached(void *ctx) {
    auto *f = static_cast<FlagWait *>(ctx);
    return sdk::load_acquire(*const_cast<uint64_t *>(f->word)) >= f->target;
}

// One progress poll and the engine's idle step: a wait with no time left.
bool host_poll(void *ctx, const uint64_t *word, uint64_t target) {
    auto *w = static_cast<HostWaiter *>(ctx);
    FlagWait f{word, target};
    return w->host->progress_wait(flag_reached, &f, 0) == PLEXUS_SUCCESS;
}

void host_poll_until(void *ctx, const uint64_t *word, uint64_t target) {
    auto *w = static_cast<HostWaiter *>(ctx);
    FlagWait f{word, target};
    // No timeout: a process that died is the launcher's to notice, and it ends the job.
    w->host->progress_wait(flag_reached, &f, -1);
}

void host_wait(void *ctx, const uint64_t *word, uint64_t target, uint32_t *sleepers) {
    auto *w = static_cast<HostWaiter *>(ctx);
    const FlagWaitHooks hooks{host_poll, host_poll_until, futex_sleep_on, w};
    wait_flag(w->policy, hooks, word, target, sleepers);
}

int single_copy_read(void *ctx, int32_t pid, uint64_t addr, void *dst, size_t len) {
    const auto *shm = static_cast<const plexus_shm_services_t *>(ctx);
    plexus_shm_iovec_t local{dst, len};
    plexus_shm_remote_iovec_t remote{addr, len};
    plexus_reason_t why{};
    return shm->single_copy(pid, &local, 1, &remote, 1, 0, &why) == PLEXUS_SUCCESS
               ? 0
               : PLEXUS_COLL_ERR_OTHER;
}

int single_copy_write(void *ctx, int32_t pid, uint64_t addr, const void *src, size_t len) {
    const auto *shm = static_cast<const plexus_shm_services_t *>(ctx);
    plexus_shm_iovec_t local{const_cast<void *>(src), len};
    plexus_shm_remote_iovec_t remote{addr, len};
    plexus_reason_t why{};
    return shm->single_copy(pid, &local, 1, &remote, 1, 1, &why) == PLEXUS_SUCCESS
               ? 0
               : PLEXUS_COLL_ERR_OTHER;
}

// The host's shm table when it has one (host API 1.3).
const plexus_shm_services_t *shm_of(const plexus_host_api_t *host) {
    if (!host || host->struct_size < offsetof(plexus_host_api_t, shm) + sizeof host->shm)
        return nullptr;
    return host->shm;
}

Record my_record(const Env &env, int rank) {
    Record r{};
    r.node = node_key(rank, env.params->ranks_per_node);
    r.pid = static_cast<int32_t>(getpid());
    const plexus_shm_services_t *shm = shm_of(env.host);
    plexus_reason_t why{};
    r.single_copy = shm && shm->single_copy_available(&why) == 1;
    r.room = g_live_groups.load() < env.params->max_groups;
    if (env.host->topology_self_cpuset(r.cpuset, sizeof r.cpuset) != PLEXUS_SUCCESS)
        r.cpuset[0] = 0;
    return r;
}

// Every process's record at every process: to process 0, then back (2 (p - 1) messages; once per
// communicator).
int exchange_records(const Peers &peers, const Record &mine, std::vector<Record> *all) {
    const int p = peers.size, me = peers.rank;
    all->assign(static_cast<size_t>(p), Record{});
    (*all)[static_cast<size_t>(me)] = mine;
    const int bytes = static_cast<int>(sizeof(Record));
    if (me != 0) {
        if (int rc = peers.send(&mine, bytes, 0, kTagSetupRecord)) return rc;
        return peers.recv(all->data(), bytes * p, 0, kTagSetupRecord);
    }
    for (int r = 1; r < p; ++r)
        if (int rc = peers.recv(&(*all)[static_cast<size_t>(r)], bytes, r, kTagSetupRecord))
            return rc;
    for (int r = 1; r < p; ++r)
        if (int rc = peers.send(all->data(), bytes * p, r, kTagSetupRecord)) return rc;
    return PLEXUS_COLL_SUCCESS;
}

// 1 when every process voted 1 (through process 0).
int agree(const Peers &peers, int vote, int *verdict) {
    const int p = peers.size, me = peers.rank;
    if (me != 0) {
        if (int rc = peers.send(&vote, 4, 0, kTagSetupVote)) return rc;
        return peers.recv(verdict, 4, 0, kTagSetupVerdict);
    }
    int all = vote;
    for (int r = 1; r < p; ++r) {
        int v = 0;
        if (int rc = peers.recv(&v, 4, r, kTagSetupVote)) return rc;
        all = all && v;
    }
    for (int r = 1; r < p; ++r)
        if (int rc = peers.send(&all, 4, r, kTagSetupVerdict)) return rc;
    *verdict = all;
    return PLEXUS_COLL_SUCCESS;
}

}  // namespace

TwoLevel::~TwoLevel() {
    if (engine_) --g_live_groups;
}

int TwoLevel::node_rank_of(int comm_rank) const {
    auto it = std::lower_bound(members_.begin(), members_.end(), comm_rank);
    return it != members_.end() && *it == comm_rank ? static_cast<int>(it - members_.begin()) : -1;
}

int TwoLevel::create(const Env &env, plexus_coll_comm_t *comm, std::unique_ptr<TwoLevel> *out,
                     std::string *why) {
    return create(env, Peers::of(env.svc, comm), comm, out, why);
}

int TwoLevel::create_on_one_node(const Env &env, const Peers &peers,
                                 std::unique_ptr<TwoLevel> *out, std::string *why) {
    return create(env, peers, nullptr, out, why);
}

int TwoLevel::create(const Env &env, const Peers &peers, plexus_coll_comm_t *comm,
                     std::unique_ptr<TwoLevel> *out, std::string *why) {
    std::unique_ptr<TwoLevel> t(new TwoLevel);
    t->env_ = env;
    t->comm_ = comm;
    t->rank_ = peers.rank;
    t->size_ = peers.size;

    std::vector<Record> records;
    if (int rc = exchange_records(peers, my_record(env, t->rank_), &records)) return rc;
    const std::vector<std::vector<int>> groups = node_groups(records);
    // Without a communicator there is no leaders' level: one node or nothing, alike everywhere.
    if (!comm && groups.size() > 1) {
        *why = "its processes are not all on one node";
        return PLEXUS_ERR_NOT_AVAILABLE;
    }
    t->node_of_.assign(static_cast<size_t>(t->size_), 0);
    bool any_pair = false, room = true;
    for (const Record &r : records) room = room && r.room;
    for (size_t g = 0; g < groups.size(); ++g) {
        t->leaders_.push_back(groups[g][0]);
        any_pair = any_pair || groups[g].size() > 1;
        for (int r : groups[g]) {
            t->node_of_[static_cast<size_t>(r)] = static_cast<int>(g);
            if (r == t->rank_) t->members_ = groups[g];
        }
    }
    // Everyone has every record: this answer is the same everywhere without another message.
    if (!any_pair) {
        *why = "no two processes of the communicator share a node";
        return PLEXUS_ERR_NOT_AVAILABLE;
    }
    if (!room) {
        *why = "a process already keeps coll_shm_inter_max_groups node groups";
        return PLEXUS_ERR_NOT_AVAILABLE;
    }

    const int n = static_cast<int>(t->members_.size());
    const int node_rank = t->node_rank_of(t->rank_);
    const Layout layout = make_layout(n, env.params->chunk);
    const plexus_shm_services_t *shm = shm_of(env.host);
    int ok = 1;
    std::string mine;
    uint8_t *base = nullptr;
    if (n == 1) {
        t->private_slots_.assign(layout.total_bytes(), 0);
        base = t->private_slots_.data();
    } else if (node_rank == 0) {
        plexus_shm_desc_t desc{};
        plexus_reason_t reason{};
        plexus_shm_create_args_t args{};
        args.struct_size = sizeof args;
        args.size = layout.total_bytes();
        args.expected_peers = static_cast<uint32_t>(n - 1);
        args.label = kLabel;
        if (!shm) {
            ok = 0, mine = "the core offers no shared-memory services (host API before 1.3)";
        } else if (sdk::ShmSegment::create(shm, args, &t->segment_, &reason) != PLEXUS_SUCCESS) {
            ok = 0,
            mine = std::string("the node group's segment could not be created: ") + reason.text;
        } else {
            desc = t->segment_.describe();
        }
        // A failed leader still sends (an empty descriptor): its node must not wait for ever.
        for (int i = 1; i < n; ++i)
            if (int rc = peers.send(&desc, sizeof desc, t->members_[static_cast<size_t>(i)],
                                    kTagSetupDesc))
                return rc;
        base = t->segment_.base();
    } else {
        plexus_shm_desc_t desc{};
        if (int rc = peers.recv(&desc, sizeof desc, t->members_[0], kTagSetupDesc)) return rc;
        plexus_reason_t reason{};
        if (desc.magic != PLEXUS_SHM_DESC_MAGIC) {
            ok = 0, mine = "the node leader could not create the segment";
        } else if (!shm ||
                   sdk::ShmSegment::attach(shm, desc, &t->segment_, &reason) != PLEXUS_SUCCESS) {
            ok = 0,
            mine = std::string("the node group's segment could not be mapped: ") + reason.text;
        }
        base = t->segment_.base();
    }
    if (base && t->segment_ && t->segment_.size() < layout.total_bytes())
        ok = 0, mine = "segment smaller than asked";

    int verdict = 0;
    if (int rc = agree(peers, ok, &verdict)) return rc;
    if (!verdict) {
        *why = ok ? "another process could not set up its node group's segment" : mine;
        return PLEXUS_ERR_NOT_AVAILABLE;
    }
    if (node_rank == 0 && t->segment_) t->segment_.unlink(true);

    // The tree over the node group, from the hardware relations of its members.
    std::vector<unsigned> relation(static_cast<size_t>(n) * n, 0);
    bool single_copy = true;
    t->single_copy_ = true;
    for (const Record &r : records) t->single_copy_ = t->single_copy_ && r.single_copy;
    for (int i = 0; i < n; ++i) {
        const Record &a = records[static_cast<size_t>(t->members_[static_cast<size_t>(i)])];
        single_copy = single_copy && a.single_copy;
        for (int j = 0; j < n; ++j) {
            const Record &b = records[static_cast<size_t>(t->members_[static_cast<size_t>(j)])];
            unsigned bits = 0;
            if (i != j && a.cpuset[0] && b.cpuset[0] &&
                env.host->topology_relation(a.cpuset, b.cpuset, &bits) != 0)
                bits = 0;
            relation[static_cast<size_t>(i) * n + j] = bits;
        }
    }
    t->waiter_ = HostWaiter{env.host, env.params->wait};
    SingleCopy copy{};
    if (single_copy && shm && n > 1)
        copy = SingleCopy{single_copy_read, const_cast<plexus_shm_services_t *>(shm),
                          single_copy_write};
    t->engine_ = std::make_unique<Engine>(
        base, layout, node_rank, binomial_tree(topology_order(n, relation)),
        Waiter{host_wait, &t->waiter_}, copy, env.params->flat_barrier_max);
    Control &me = t->engine_->control(node_rank);
    me.pid = static_cast<int32_t>(getpid());
    me.ready = 1;
    // Which large-message paths this communicator has (the tests check the trace for it).
    if (t->rank_ == 0 && env.host && env.self)
        env.host->log(env.self, PLEXUS_LOG_DECISION,
                      "%d processes in %zu node group(s); single copy %s", t->size_,
                      t->leaders_.size(),
                      t->single_copy_ ? "available to every process" : "not available everywhere");
    ++g_live_groups;
    *out = std::move(t);
    return PLEXUS_SUCCESS;
}

// ---- the leaders' level (point-to-point between node groups)

// Dissemination among the leaders: ceil(log2 L) rounds of empty messages.
int TwoLevel::leaders_barrier() {
    const int l = static_cast<int>(leaders_.size());
    const int me = node_of_[static_cast<size_t>(rank_)];
    char token = 0, got = 0;
    for (int d = 1; d < l; d <<= 1) {
        const int to = leaders_[static_cast<size_t>((me + d) % l)];
        const int from = leaders_[static_cast<size_t>((me - d + l) % l)];
        if (int rc = env_.svc->sendrecv(&token, 0, env_.svc->byte_type, to, &got, 0,
                                        env_.svc->byte_type, from, kTagLeaderBarrier, comm_))
            return rc;
    }
    return PLEXUS_COLL_SUCCESS;
}

// Linear from the leader `from`: few nodes per communicator on the machines this serves.
int TwoLevel::leaders_bcast(void *data, size_t bytes, int from) {
    const plexus_coll_services_t *svc = env_.svc;
    if (rank_ != from)
        return svc->recv(data, static_cast<int>(bytes), svc->byte_type, from, kTagLeaderBcast,
                         comm_);
    for (int l : leaders_)
        if (l != from)
            if (int rc = svc->send(data, static_cast<int>(bytes), svc->byte_type, l,
                                   kTagLeaderBcast, comm_))
                return rc;
    return PLEXUS_COLL_SUCCESS;
}

// Every leader's acc combined into `to`'s acc (commutative operations only).
int TwoLevel::leaders_reduce(void *acc, size_t count, size_t item_bytes, Combine combine, int to) {
    const plexus_coll_services_t *svc = env_.svc;
    const int bytes = static_cast<int>(count * item_bytes);
    if (rank_ != to) return svc->send(acc, bytes, svc->byte_type, to, kTagLeaderReduce, comm_);
    std::vector<uint8_t> in(count * item_bytes);
    for (int l : leaders_) {
        if (l == to) continue;
        if (int rc = svc->recv(in.data(), bytes, svc->byte_type, l, kTagLeaderReduce, comm_))
            return rc;
        if (int rc = combine.apply(combine.ctx, in.data(), acc, count)) return rc;
    }
    return PLEXUS_COLL_SUCCESS;
}

// ---- the two-level collectives

int TwoLevel::barrier() {
    if (single_node()) {
        engine_->barrier();
        return PLEXUS_COLL_SUCCESS;
    }
    engine_->fan_in();
    int rc = PLEXUS_COLL_SUCCESS;
    if (leader()) rc = leaders_barrier();
    engine_->fan_out();
    return rc;
}

int TwoLevel::bcast(void *data, size_t bytes, int root) {
    const size_t cma = env_.params->single_copy_from;
    if (single_node()) return engine_->bcast(data, bytes, node_rank_of(root), cma);
    const int root_leader = leaders_[static_cast<size_t>(node_of_[static_cast<size_t>(root)])];
    const plexus_coll_services_t *svc = env_.svc;
    if (root != root_leader) {
        if (rank_ == root)
            if (int rc = svc->send(data, static_cast<int>(bytes), svc->byte_type, root_leader,
                                   kTagRootToLeader, comm_))
                return rc;
        if (rank_ == root_leader)
            if (int rc = svc->recv(data, static_cast<int>(bytes), svc->byte_type, root,
                                   kTagRootToLeader, comm_))
                return rc;
    }
    if (leader())
        if (int rc = leaders_bcast(data, bytes, root_leader)) return rc;
    return engine_->bcast(data, bytes, 0, cma);
}

int TwoLevel::reduce(const void *in, void *out, size_t count, size_t item_bytes, Combine combine,
                     int root, Path path) {
    const auto node_reduce = [&](void *dst, int node_root) {
        switch (path) {
            case Path::SingleCopy:
                return engine_->reduce_by_single_copy(in, dst, count, item_bytes, combine,
                                                      node_root);
            case Path::RootCombines:
                return engine_->reduce_at_root_by_single_copy(in, dst, count, item_bytes, combine,
                                                              node_root);
            default: return engine_->reduce(in, dst, count, item_bytes, combine, node_root);
        }
    };
    if (single_node()) return node_reduce(out, root < 0 ? -1 : node_rank_of(root));
    // The node's result at its leader (in out when the leader keeps the result, else aside).
    std::vector<uint8_t> aside;
    const bool keeps = root < 0 || rank_ == root;
    void *acc = out;
    if (leader() && !keeps) {
        aside.resize(count * item_bytes);
        acc = aside.data();
    }
    if (int rc = node_reduce(leader() ? acc : nullptr, 0)) return rc;
    const int to = root < 0 ? leaders_[0] : root;
    const plexus_coll_services_t *svc = env_.svc;
    const int bytes = static_cast<int>(count * item_bytes);
    if (root >= 0 && !leader() && rank_ == root) {
        // The root is not a leader: its node's leader sends too, so it starts from nothing.
        std::vector<uint8_t> part(count * item_bytes);
        bool first = true;
        for (int l : leaders_) {
            void *dst = first ? out : part.data();
            if (int rc = svc->recv(dst, bytes, svc->byte_type, l, kTagLeaderReduce, comm_))
                return rc;
            if (!first)
                if (int rc = combine.apply(combine.ctx, part.data(), out, count)) return rc;
            first = false;
        }
        return PLEXUS_COLL_SUCCESS;
    }
    if (leader())
        if (int rc = leaders_reduce(acc, count, item_bytes, combine, to)) return rc;
    if (root >= 0) return PLEXUS_COLL_SUCCESS;
    if (leader())
        if (int rc = leaders_bcast(out, count * item_bytes, leaders_[0])) return rc;
    return engine_->bcast(out, count * item_bytes, 0, env_.params->single_copy_from);
}

}  // namespace plexus::coll_shm_inter
