// The tags of coll_basic's point-to-point messages, one per collective (within the collective tag
// space 0 .. PLEXUS_COLL_TAG_MAX): only the order of calls keeps collectives apart (MPI requires
// every process to call them in the same order), the distinct tags make a mismatch visible.
#pragma once

namespace plexus::coll_basic {

enum Tag : int {
    kTagBarrier = 1,
    kTagBcast,
    kTagReduce,
    kTagAllreduce,
    kTagGather,
    kTagGatherv,
    kTagScatter,
    kTagScatterv,
    kTagAllgather,
    kTagAllgatherv,
    kTagAlltoall,
    kTagAlltoallv,
    kTagAlltoallw,
    kTagReduceScatter,
    kTagReduceScatterBlock,
    kTagScan,
    kTagExscan
};

}  // namespace plexus::coll_basic
