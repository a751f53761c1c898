// The AgreementChannels of communicator construction (context_agreement.h):
//   IntraChannel    all processes of one intra-communicator;
//   BridgedChannel  two disjoint groups, each with an intra-communicator of its own, joined by
//                   their leaders over a bridge communicator (MPI_Intercomm_create's peer_comm
//                   with the user's tag, or the inter-communicator itself with a library tag):
//                   allreduce in the local group, the leaders swap and combine, bcast locally.
// A cross-job agreement (dpm: connect/accept, spawn) is another BridgedChannel whose bridge
// reaches the other job's leader.
#pragma once

#include "mpi/comm/context_agreement.h"
#include "mpi/communicator.h"

namespace plexus::mpi {

class IntraChannel final : public AgreementChannel {
public:
    explicit IntraChannel(Comm *comm) : comm_(comm) {}
    int allreduce(uint64_t *values, size_t n, ReduceOp op) override;

private:
    Comm *comm_;
};

class BridgedChannel final : public AgreementChannel {
public:
    // bridge and remote_leader matter at the local leader only.
    BridgedChannel(Comm *local, int local_leader, Comm *bridge, int remote_leader, int tag)
        : local_(local), leader_(local_leader), bridge_(bridge), remote_leader_(remote_leader), tag_(tag) {}
    // For an inter-communicator: its local_comm, leaders rank 0, the library's tag.
    explicit BridgedChannel(Comm *inter);
    int allreduce(uint64_t *values, size_t n, ReduceOp op) override;

    // A word the leaders trade on the channel's first allreduce, beside its values: the local
    // leader's `mine` goes to the remote leader, and every process of each group learns both
    // leaders' words from its own leader's broadcast (mine(), theirs() after that allreduce).
    // MPI_Intercomm_merge's high travels so, saving the leaders' separate swap and broadcast: on
    // an oversubscribed node every message step is a wait for a process to get a CPU.
    void carry(uint64_t mine) { carry_[0] = mine; carrying_ = true; }
    uint64_t leaders_word() const { return carry_[0]; }
    uint64_t remote_leaders_word() const { return carry_[1]; }

private:
    Comm *local_;
    int leader_;
    Comm *bridge_;
    int remote_leader_;
    int tag_;
    bool carrying_ = false;
    uint64_t carry_[2] = {0, 0};  // this group's leader's word, the remote leader's
};

}  // namespace plexus::mpi
