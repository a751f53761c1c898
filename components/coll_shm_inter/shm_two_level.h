// The two-level view of an intra-communicator that the engine serves: node groups (the members
// that share a node, each with a segment and an Engine) and their leaders (the lowest rank of
// each node group), which talk by point-to-point. It is what the paper calls the hidden 2-level
// communicator: an intra-communicator's module has one over the communicator, an
// inter-communicator's module one over its local group, made at its first collective.
//
// create() is collective over the communicator and agrees: every process gets a TwoLevel, or
// every process gets PLEXUS_ERR_NOT_AVAILABLE with a reason (no two processes on one node, a
// segment that could not be made or mapped somewhere). Ops work on packed contiguous bytes.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <plexus/coll.h>
#include <plexus/component.h>
#include <plexus/sdk/shm_segment.hpp>

#include "shm_decide.h"
#include "shm_engine.h"
#include "shm_params.h"
#include "shm_setup.h"

namespace plexus::coll_shm_inter {

struct Env {
    const plexus_host_api_t *host = nullptr;
    const plexus_coll_services_t *svc = nullptr;
    const Params *params = nullptr;
    const plexus_component_t *self = nullptr;  // for the host's log
    int verbosity = 0;  // coll_base_verbose when the module was made: traces cost nothing below
};

// A flag wait through the host's progress engine, then asleep on the flag (flag_wait.h).
struct HostWaiter {
    const plexus_host_api_t *host = nullptr;
    FlagWaitPolicy policy;
};

class TwoLevel {
public:
    // Collective over comm (an intra-communicator). PLEXUS_SUCCESS; PLEXUS_ERR_NOT_AVAILABLE
    // with *why at every process; another error class when the setup messages failed.
    static int create(const Env &env, plexus_coll_comm_t *comm, std::unique_ptr<TwoLevel> *out,
                      std::string *why);
    // The same over peers that need not be one communicator's ranks (the union of an
    // inter-communicator's groups), for processes that are all on one node: there is no
    // leaders' level, so PLEXUS_ERR_NOT_AVAILABLE everywhere when they are not.
    static int create_on_one_node(const Env &env, const Peers &peers,
                                  std::unique_ptr<TwoLevel> *out, std::string *why);

    int rank() const { return rank_; }
    int size() const { return size_; }
    bool single_node() const { return leaders_.size() == 1; }
    bool leader() const { return members_[0] == rank_; }
    int node_rank_of(int comm_rank) const;  // -1: not on this node
    Engine &engine() { return *engine_; }
    // Every process of the communicator may use single copy (the same answer everywhere: the
    // large-message paths are chosen from it).
    bool single_copy() const { return single_copy_; }
    const std::vector<int> &members() const { return members_; }
    const std::vector<int> &leaders() const { return leaders_; }

    // The collectives, two-level. root is a rank of the communicator.
    int barrier();
    int bcast(void *data, size_t bytes, int root);
    // count items of item_bytes; out significant at root (root < 0: everywhere). More than one
    // node needs a commutative operation (the caller declines otherwise).
    // path: how the node groups' phase moves the data (SingleCopy and RootCombines only when
    // single_copy(); RootCombines only with root >= 0).
    int reduce(const void *in, void *out, size_t count, size_t item_bytes, Combine combine,
               int root, Path path = Path::Segment);
    // Single node only (the caller declines otherwise): block bytes per process.
    int gather(const void *in, size_t block, void *out, int root, bool by_copy = false) {
        return by_copy ? engine_->gather_by_single_copy(in, block, out, root)
                       : engine_->gather(in, block, out, root);
    }
    int scatter(const void *in, size_t block, void *out, int root, bool by_copy = false) {
        return by_copy ? engine_->scatter_by_single_copy(in, block, out, root)
                       : engine_->scatter(in, block, out, root);
    }

    TwoLevel(const TwoLevel &) = delete;
    TwoLevel &operator=(const TwoLevel &) = delete;
    ~TwoLevel();

private:
    TwoLevel() = default;
    static int create(const Env &env, const Peers &peers, plexus_coll_comm_t *comm,
                      std::unique_ptr<TwoLevel> *out, std::string *why);
    int leaders_barrier();
    int leaders_bcast(void *data, size_t bytes, int from);
    int leaders_reduce(void *acc, size_t count, size_t item_bytes, Combine combine, int to);

    Env env_;
    plexus_coll_comm_t *comm_ = nullptr;
    int rank_ = 0, size_ = 0;
    std::vector<int> members_;  // comm ranks of this node group, ascending (members_[0] leads)
    std::vector<int> leaders_;  // comm ranks of every node group's leader, ascending
    std::vector<int> node_of_;  // per comm rank: index of its node group's leader in leaders_
    bool single_copy_ = false;  // every process of the communicator may use single copy
    sdk::ShmSegment segment_;
    std::vector<uint8_t> private_slots_;  // a node group of one has no segment
    HostWaiter waiter_;
    std::unique_ptr<Engine> engine_;
};

}  // namespace plexus::coll_shm_inter
