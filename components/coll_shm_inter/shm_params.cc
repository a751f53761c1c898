#include "shm_params.h"

#include <plexus/sdk/param.hpp>

namespace plexus::coll_shm_inter {
namespace {

// What the core writes at registration (SIZE parameters are uint64_t, INT int64_t).
struct Storage {
    int force = 0;
    uint64_t chunk = 16384;
    uint64_t single_copy_from = 16384;
    uint64_t bcast_max = 0;
    uint64_t reduce_max = 0;
    uint64_t allreduce_max = 0;
    uint64_t gather_max = 0;
    uint64_t allgather_max = 0;
    int64_t ranks_per_node = 0;
    int64_t spin = 200;
    int64_t max_groups = 256;
    int64_t flat_barrier_max = 16;
    uint64_t reduce_single_copy_from = 4194304;
    uint64_t allreduce_single_copy_from = 262144;
    uint64_t gather_single_copy_from = 32768;
    uint64_t allgather_single_copy_from = 32768;
    uint64_t leaders_single_copy_from = 32768;
    uint64_t alltoall_single_copy_from = 32768;
    uint64_t reduce_root_copy_from = 16384;
    int wait_sleep = 1;
    int inter_union = 1;
    int inter_union_rooted = 1;
    int64_t wait_polls = -1;
    int64_t wait_min_sleep_us = 50;
    int64_t wait_max_sleep_us = 1000;
};

Storage g_storage;
Params g_params;

}  // namespace

int register_params(const plexus_host_api_t *host, const plexus_component_t *self) {
    using namespace plexus::sdk;
    Storage &s = g_storage;
    return plexus::sdk::register_params(
        host, self,
        {
            bool_param("force", &s.force, "0",
                       "Serve every call of the functions it offers, whatever the size (the size "
                       "table is ignored)",
                       6),
            size_param(
                "chunk_bytes", &s.chunk, "16k",
                "Bytes of one process's slot in a node group's segment: the pipeline's chunk", 6),
            size_param("single_copy_bytes", &s.single_copy_from, "16k",
                       "Bcast by single copy (every process reads the root's buffer) from this "
                       "many bytes, whatever bcast_max_bytes says; 0: never",
                       6),
            size_param("reduce_single_copy_bytes", &s.reduce_single_copy_from, "4M",
                       "Reduce by single copy (each process combines a stripe of every input, "
                       "read from the others' buffers, and writes it to the root) from this many "
                       "bytes; 0: never",
                       6),
            size_param("allreduce_single_copy_bytes", &s.allreduce_single_copy_from, "256k",
                       "Allreduce by single copy (stripes combined as for Reduce, then written "
                       "into every process's result) from this many bytes; 0: never",
                       6),
            size_param(
                "gather_single_copy_bytes", &s.gather_single_copy_from, "32k",
                "Gather (each block written into the root's buffer) and Scatter (each "
                "block read from it) by single copy from this many bytes per block; 0: never",
                6),
            size_param("allgather_single_copy_bytes", &s.allgather_single_copy_from, "32k",
                       "Allgather by single copy (every process reads every block) from this many "
                       "bytes per block; 0: never",
                       6),
            size_param("leaders_single_copy_bytes", &s.leaders_single_copy_from, "32k",
                       "Inter-communicators: the exchange between the two groups' processes that "
                       "carry it (leaders, a root) by single copy from this many bytes, when both "
                       "are on one node; 0: never (point-to-point)",
                       6),
            size_param("alltoall_single_copy_bytes", &s.alltoall_single_copy_from, "32k",
                       "Inter-communicators: Alltoall with blocks from this many bytes served, "
                       "each pair on one node by single copy (smaller: the next component's "
                       "pairwise messages); 0: never",
                       6),
            size_param("reduce_root_copy_bytes", &s.reduce_root_copy_from, "16k",
                       "Reduce from this many bytes up to reduce_single_copy_bytes: every process "
                       "writes its vector into the root by single copy and returns, the root "
                       "combines them; 0: never",
                       6),
            size_param("bcast_max_bytes", &s.bcast_max, "16k",
                       "Largest Bcast message the engine serves (larger: the next component)", 6),
            size_param("reduce_max_bytes", &s.reduce_max, "16k",
                       "Largest Reduce vector the engine serves", 6),
            size_param("allreduce_max_bytes", &s.allreduce_max, "16k",
                       "Largest Allreduce vector the engine serves", 6),
            size_param("gather_max_bytes", &s.gather_max, "4k",
                       "Largest Gather block (per process) the engine serves", 6),
            size_param("allgather_max_bytes", &s.allgather_max, "16k",
                       "Largest Allgather block (per process) the engine serves", 6),
            int_param("ranks_per_node", &s.ranks_per_node, "0",
                      "Pretend nodes of this many consecutive ranks (tests of the two-level "
                      "paths); 0: the real nodes",
                      9)
                .range(0, 1 << 20),
            int_param("spin", &s.spin, "200",
                      "Flag polls before a wait goes through the progress engine's back-off (0 on "
                      "oversubscribed nodes)",
                      7)
                .range(0, 1 << 24),
            bool_param("inter_union", &s.inter_union, "1",
                       "Inter-communicators whose two groups are all on one node share one "
                       "segment over both groups: Barrier and small Allreduce, Allgather and "
                       "Alltoall run on its flags without the leaders' messages; 0: every "
                       "call runs a local phase in each group and the leaders' exchange",
                       6),
            bool_param("inter_union_rooted", &s.inter_union_rooted, "1",
                       "With inter_union: Bcast and Reduce over the union too (the root and the "
                       "other group in one phase of its flags); 0: they take the local phases "
                       "and the leaders' exchange while the other functions keep the union",
                       7),
            bool_param("wait_sleep", &s.wait_sleep, "1",
                       "A flag wait that found nothing in wait_polls progress polls sleeps on the "
                       "flag (a futex its writer wakes); 0: it polls the progress engine only, "
                       "with the engine's back-off (yields, then timed sleeps)",
                       7),
            int_param("wait_polls", &s.wait_polls, "-1",
                      "Progress polls of a flag wait (each followed by the engine's idle step, a "
                      "yield on a node with more processes than CPUs) before it sleeps on the "
                      "flag; -1: 100 on a node with more processes than CPUs (the writer may need this "
                      "CPU), 2000 elsewhere (tens of microseconds of polling, as the engine spins)",
                      7)
                .range(-1, 1 << 24),
            int_param("wait_min_sleep_us", &s.wait_min_sleep_us, "50",
                      "The first sleep of a flag wait on its flag; each further one doubles up to "
                      "wait_max_sleep_us (the flag's writer ends a sleep at once)",
                      7)
                .range(1, 1000000),
            int_param("wait_max_sleep_us", &s.wait_max_sleep_us, "1000",
                      "The longest sleep of a flag wait between progress polls: how late a "
                      "message for a process asleep on a flag is noticed",
                      7)
                .range(1, 1000000),
            int_param("flat_barrier_max", &s.flat_barrier_max, "16",
                      "Node groups of up to this many processes use the flat barrier (everyone "
                      "waits for everyone's flag); larger ones the tree",
                      7)
                .range(0, 1 << 20),
            int_param("max_groups", &s.max_groups, "256",
                      "Node groups (one segment each) a process keeps at once; a communicator past "
                      "it in any process is declined",
                      7)
                .range(0, 1 << 20),
        });
}

const Params &params() {
    return g_params;
}

void snapshot_params(bool oversubscribed) {
    const Storage &s = g_storage;
    Params p;
    p.force = s.force != 0;
    p.chunk = s.chunk ? static_cast<size_t>(s.chunk) : 16384;
    p.single_copy_from = static_cast<size_t>(s.single_copy_from);
    p.bcast_max = static_cast<size_t>(s.bcast_max);
    p.reduce_max = static_cast<size_t>(s.reduce_max);
    p.allreduce_max = static_cast<size_t>(s.allreduce_max);
    p.gather_max = static_cast<size_t>(s.gather_max);
    p.allgather_max = static_cast<size_t>(s.allgather_max);
    p.ranks_per_node = static_cast<int>(s.ranks_per_node);
    p.spin = oversubscribed ? 0 : static_cast<int>(s.spin);
    p.max_groups = static_cast<int>(s.max_groups);
    p.flat_barrier_max = static_cast<int>(s.flat_barrier_max);
    p.reduce_single_copy_from = static_cast<size_t>(s.reduce_single_copy_from);
    p.allreduce_single_copy_from = static_cast<size_t>(s.allreduce_single_copy_from);
    p.gather_single_copy_from = static_cast<size_t>(s.gather_single_copy_from);
    p.allgather_single_copy_from = static_cast<size_t>(s.allgather_single_copy_from);
    p.leaders_single_copy_from = static_cast<size_t>(s.leaders_single_copy_from);
    p.alltoall_single_copy_from = static_cast<size_t>(s.alltoall_single_copy_from);
    p.reduce_root_copy_from = static_cast<size_t>(s.reduce_root_copy_from);
    p.wait.spin = p.spin;
    p.wait.sleep = s.wait_sleep != 0;
    p.inter_union = s.inter_union != 0;
    p.inter_union_rooted = s.inter_union_rooted != 0;
    p.wait.polls = flag_wait_polls(s.wait_polls, oversubscribed);
    p.wait.min_sleep_us = static_cast<uint32_t>(s.wait_min_sleep_us);
    p.wait.max_sleep_us = static_cast<uint32_t>(s.wait_max_sleep_us);
    g_params = p;
}

}  // namespace plexus::coll_shm_inter
