// The exchange between the two groups of an inter-communicator (the leaders' swap, a root and
// the other group's leader) by single copy when both processes are on one node: the sender
// sends a descriptor of its packed bytes (node, pid, address, length), the receiver reads them
// with one single copy and answers; when they are not on one node, or the read fails, the answer
// asks for the bytes and they travel by point-to-point after all. Chosen from the byte count
// alone (coll_shm_inter_leaders_single_copy_bytes), which both sides know alike, so both run the
// same protocol without agreeing first. Below the threshold these are plain point-to-point.
#pragma once

#include <cstddef>
#include <cstdint>

#include <plexus/coll.h>

#include "inter_local.h"

namespace plexus::coll_shm_inter::inter {

// What a sender publishes: where its packed bytes are, and whether they can be read at all.
struct LinkDesc {
    uint64_t node;  // node_key of the sender's host
    uint64_t addr;
    uint64_t bytes;
    int32_t pid;
    int32_t can;  // 1: single copy available in the sender (never on fake nodes)
};
LinkDesc link_desc(const Env &env, const void *data, size_t bytes);
// Both may use single copy and run on one node.
bool link_same_node(const LinkDesc &a, const LinkDesc &b);
// 1 when len bytes at offset of what peer published were read into dst; 0 otherwise.
int link_read(const Env &env, const LinkDesc &peer, size_t offset, void *dst, size_t len);

int link_send(Call &c, const void *buf, int count, plexus_coll_dtype_t *type, int peer, int tag);
int link_recv(Call &c, void *buf, int count, plexus_coll_dtype_t *type, int peer, int tag);
// An inter-communicator Bcast's receiving leader: link_recv, except that where the root shares
// the node and the group's Bcast phase would go by single copy, the whole group reads the root's
// buffer at once (Engine::bcast_relay) and *relayed says the local phase is done (the other
// processes of the group run their local Bcast as usual: it is the same phase for them).
int link_bcast_recv(Call &c, void *buf, int count, plexus_coll_dtype_t *type, int peer, int tag,
                    bool *relayed);
// Both directions at once with the peer (the leaders' swap of Allreduce, Allgather and
// Reduce_scatter).
int link_swap(Call &c, const void *sendbuf, int sendcount, plexus_coll_dtype_t *sendtype,
              void *recvbuf, int recvcount, plexus_coll_dtype_t *recvtype, int peer, int tag);

}  // namespace plexus::coll_shm_inter::inter
