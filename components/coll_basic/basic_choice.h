// What `auto` picks for each intra-communicator collective: pure functions of the parameters,
// the communicator size and the message size, kept apart from the algorithms so that the choices
// can be read in one place and asserted by tests (components/coll_basic/tests/test_coll_basic_choice.cc). The
// measurements behind each rule are in README.md ("Defaults: how they were measured").
#pragma once

#include "basic_context.h"

namespace plexus::coll_basic {

// On a node with more ranks than CPUs, every relay (a process that must receive before it can
// send) waits for the scheduler; from 3 ranks on auto picks the algorithms without relays.
inline bool relay_free(const Params &p, int size) { return p.oversubscribed && size > 2; }

// Each returns an algorithm of its parameter's enum (never auto). bytes: count * type size of
// the whole message (Bcast, Reduce, Allreduce); Allgather: the whole result (size * block);
// Alltoall: one block (bytes sent to one peer).
int choose_barrier(const Params &p, int size);
int choose_bcast(const Params &p, int size, long bytes);
int choose_reduce(const Params &p, int size, long bytes);
int choose_allreduce(const Params &p, int size, long bytes);
int choose_allgather(const Params &p, int size, long total_bytes);
int choose_alltoall(const Params &p, int size, long block_bytes);

}  // namespace plexus::coll_basic
