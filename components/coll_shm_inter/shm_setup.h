// What the processes of a communicator tell each other when its node groups are set up, and
// the pure decisions made from it (which processes share a node, who leads), so that every
// process decides the same without further messages.
#pragma once

#include <cstdint>
#include <vector>

#include <plexus/coll.h>

namespace plexus::coll_shm_inter {

struct Record {
    uint64_t node;  // the node's key (its host name's hash, or a fake node's)
    int32_t pid;
    int32_t single_copy;  // 1: this process may use single copy at all
    int32_t room;         // 1: below coll_shm_inter_max_groups node groups in this process
    char cpuset[108];     // hwloc's string of where it runs ("" when unknown)
};
static_assert(sizeof(Record) == 128, "records travel as 128 bytes");

// Node groups: for every node key (in the order of each group's lowest rank) the ranks on it,
// ascending.
std::vector<std::vector<int>> node_groups(const std::vector<Record> &records);

// Who a setup talks to: processes numbered 0 .. size-1 that may live on two communicators. An
// intra-communicator's processes are its ranks; the union of an inter-communicator's two groups
// (inter_local.h, union_two) numbers one group's processes first, reached through that group's
// local communicator or, from the other group, through the inter-communicator, and the other
// group's after them. So one setup (TwoLevel::create) serves both.
struct Peers {
    const plexus_coll_services_t *svc = nullptr;
    plexus_coll_comm_t *low = nullptr;   // reaches processes 0 .. split-1 (as its ranks)
    plexus_coll_comm_t *high = nullptr;  // reaches processes split .. size-1 (as rank - split)
    int split = 0;
    int rank = 0, size = 0;

    // The ranks of an intra-communicator.
    static Peers of(const plexus_coll_services_t *svc, plexus_coll_comm_t *comm);
    // bytes of raw data to / from process peer.
    int send(const void *buf, int bytes, int peer, int tag) const;
    int recv(void *buf, int bytes, int peer, int tag) const;
};

// The key of this host, or of fake node rank / ranks_per_node when ranks_per_node > 0.
uint64_t node_key(int rank, int ranks_per_node);

}  // namespace plexus::coll_shm_inter
