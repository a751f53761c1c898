// auto's choices (basic_choice.h). Numbers: us per call measured on the 2-CPU build machines.
#include "basic_choice.h"

#include "basic_params.h"
#include "basic_schedule.h"

namespace plexus::coll_basic {

// Back to back, 4 ranks on 2 CPUs, the two barriers cost the same (2.7-4.9 us, the scheduler's
// placement decides); at 8, linear 52 against 78. Linear lets rank 0 out first, so a rooted
// collective after it finds its root running (Bcast 8 B at 4 ranks: 0.2 us against 0.35-0.84).
int choose_barrier(const Params &p, int size) {
    return relay_free(p, size) ? kBarrierLinear : kBarrierDissemination;
}

// Oversubscribed, linear below bcast_linear_bytes: at 8 ranks 16 KB takes 2 us linear against
// 8-10 binomial, 64 KB 33-40 against 27-32 (the root's p - 1 copies then cost more than relays).
// From there the pipeline (chains of eager segments): 4 ranks, 64 KB / 256 KB, 4.1 / 18 us
// against binomial's 16-21 / 45-60; 8 ranks 2.3-23 / 48-54 against 37-45 / 87-124. From
// bcast_pipeline_bytes linear again: the root's segments to the chains no longer fit in the
// transport's fragments and boxes, so every few segments wait for a relay to be scheduled; with
// other programs on the CPUs, osu_bcast's loop at 8 ranks, 1 MB / 4 MB: pipeline 5,400-8,300 /
// 32,600-39,200 us, linear 430-1,020 / 3,250-3,520 (Open MPI 1,480-2,140 / 6,250; README.md).
int choose_bcast(const Params &p, int size, long bytes) {
    if (relay_free(p, size))
        return bytes >= p.bcast_linear_below && bytes < p.bcast_pipeline_below ? kBcastPipeline : kBcastLinear;
    if (bytes >= p.bcast_large && bytes >= size && size > 2) return kBcastScatterAllgather;
    return p.oversubscribed && bytes < p.bcast_linear_below ? kBcastLinear : kBcastBinomial;
}

// Oversubscribed, linear, then direct from where the root's p - 1 vectors cost more than the
// second step: 4 / 8 ranks, 128 KB 24-28 / 59-69 us against 26-37 / 86-92, 256 KB level (41-49
// / 129-148 against 41-54 / 135-146), 512 KB 77-101 / 263-269 against 71-129 / 216-234, 1 MB
// 283 / 758 against 136 / 479 (btl_sm sending below 1 MiB through fragments).
int choose_reduce(const Params &p, int size, long bytes) {
    if (p.oversubscribed && bytes < p.reduce_linear_below) return kReduceLinear;
    if (relay_free(p, size)) return kReduceDirect;
    return bytes >= p.reduce_large ? kReduceScatterGather : kReduceBinomial;
}

// Oversubscribed, 8 B-16 KB: reduce_bcast 4.2-7.3 us against direct's 7.0-12.9 at 4 ranks, 9.5-17.4
// against 18.6-29.8 at 8; 32-128 KB at 8 ranks, direct 27-85 against rabenseifner's 40-140 and
// reduce_bcast's 65-168; from 256 KB rabenseifner, 225 against 229-244 at 8 ranks.
int choose_allreduce(const Params &p, int size, long bytes) {
    if (relay_free(p, size)) {
        if (bytes < p.allreduce_reduce_bcast_below) return kAllreduceReduceBcast;
        return bytes < p.allreduce_direct_below ? kAllreduceDirect : kAllreduceRabenseifner;
    }
    return bytes >= p.allreduce_large ? kAllreduceRabenseifner : kAllreduceRecursiveDoubling;
}

// Oversubscribed, 8 B-1 KB blocks: linear 9-13 us against recursive doubling's 14-17 and Bruck's
// 16-40 at 8 ranks, 4.5-5.8 against 5.1-8.5 at 4.
int choose_allgather(const Params &p, int size, long total_bytes) {
    if (total_bytes >= p.allgather_large || relay_free(p, size))
        return p.oversubscribed ? kAllgatherLinear : kAllgatherRing;
    return pof2_floor(size) == size ? kAllgatherRecursiveDoubling : kAllgatherBruck;
}

// Oversubscribed, 8-256 B blocks: linear 9-12 us against Bruck's 17-24 at 8 ranks, 4.6-4.8 against
// 6.5-7.5 at 4 (after the linear barrier).
int choose_alltoall(const Params &p, int size, long block_bytes) {
    if (block_bytes >= p.alltoall_large || size == 2 || relay_free(p, size))
        return p.oversubscribed ? kAlltoallLinear : kAlltoallPairwise;
    return kAlltoallBruck;
}

}  // namespace plexus::coll_basic
