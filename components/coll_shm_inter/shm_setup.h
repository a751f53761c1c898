// What the processes of a communicator tell each other when its node groups are set up, and
// the pure decisions made from it (which processes share a node, who leads), so that every
// process decides the same without further messages.
#pragma once

#include <cstdint>
#include <vector>

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

// The key of this host, or of fake node rank / ranks_per_node when ranks_per_node > 0.
uint64_t node_key(int rank, int ranks_per_node);

}  // namespace plexus::coll_shm_inter
