// General active target through counters in the control blocks. MPI_Win_post adds one to
// posts[target] in each origin's block; an origin's access to a target waits until that counter
// passes the posts it has used up (one per MPI_Win_start naming the target), so a post of a later
// epoch can never stand in for the one an earlier epoch waits for. MPI_Win_complete adds one to
// each target's completes; MPI_Win_wait waits until completes reaches the total its posts called
// for (an origin completes an epoch only after the target posted it, so one running total is
// exact). Sequentially consistent atomics carry the data stores with them.
#pragma once

#include <atomic>
#include <cstdint>

#include "sm_control.h"
#include "sm_wait.h"

namespace plexus::osc_sm {

// The target's side of post: tells origin (its block) that target posted.
inline void post_to(ControlBlock *origin, uint32_t target) { post_counter(origin, target).fetch_add(1); }

// The origin's side: whether target posted more often than used posts (this origin's count).
inline bool posted(ControlBlock *self, uint32_t target, uint64_t used) { return post_counter(self, target).load() > used; }

// The origin's complete to one target.
inline void complete_to(ControlBlock *target) { target->completes.fetch_add(1); }

// The target's wait: whether completes reached expected.
inline bool completed(ControlBlock *self, uint64_t expected) { return self->completes.load() >= expected; }

}  // namespace plexus::osc_sm
