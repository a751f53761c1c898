// coll_shm_inter's point-to-point tags (0 .. PLEXUS_COLL_TAG_MAX, the collective tag space):
// the setup of a node group, the node leaders' level, and the inter-communicator exchanges.
// Setup and leader messages travel on the intra-communicator being set up or served; the
// inter-communicator ones on the inter-communicator.
#pragma once

namespace plexus::coll_shm_inter {

enum Tag : int {
    kTagSetupRecord = 900,   // every process's record to rank 0, and all of them back
    kTagSetupDesc = 901,     // a node leader's segment descriptor to its node
    kTagSetupVote = 902,     // whether the segment is mapped here
    kTagSetupVerdict = 903,  // everyone's verdict
    kTagLeaderBarrier = 910,
    kTagLeaderBcast = 911,
    kTagLeaderReduce = 912,
    kTagRootToLeader = 913,
    kTagInterBarrier = 920,
    kTagInterBcast = 921,
    kTagInterReduce = 922,
    kTagInterAllreduce = 923,
    kTagInterGather = 924,
    kTagInterScatter = 925,
    kTagInterAllgather = 926,
    kTagInterReduceScatter = 927,
    kTagLinkDesc = 930,       // inter_link: where the sender's bytes are
    kTagLinkAck = 931,        // inter_link: read (1), or send them (0)
    kTagInterAlltoall = 932,  // blocks that could not be read
    kTagUnionOrder = 940,     // which group comes first in the union of both (inter_local.cc)
};

}  // namespace plexus::coll_shm_inter
