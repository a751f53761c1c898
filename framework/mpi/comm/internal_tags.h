// Tags the library uses for its own messages on a user's communicator. User messages have tags
// >= 0 and a receive for MPI_ANY_TAG (-1) matches only those, so negative tags below -1 never
// meet user traffic. Ranges:
//   -2 .. -16   communicator management (comm/internal_collectives.h, the agreements)
//   -17 .. -1040   the COLL framework: a component's collective tag t (0..PLEXUS_COLL_TAG_MAX,
//                  plexus/coll.h) travels as -17 - t (coll/coll_tags.h)
//   -1041 and below: free for later internal users.
#pragma once

namespace plexus::mpi::tags {

constexpr int kCommFirst = -2;
constexpr int kCommLast = -16;

// -2 is free (kept in the range for a future barrier of construction).
constexpr int kBcast = -3;
constexpr int kGather = -4;
constexpr int kReduce = -5;
constexpr int kLeaderExchange = -6;  // the two leaders of an inter-communicator

constexpr int kFirstFreeBelowComm = -17;

// The COLL framework's range: component tag t is kCollFirst - t.
constexpr int kCollFirst = kFirstFreeBelowComm;
constexpr int kCollCount = 1024;  // PLEXUS_COLL_TAG_MAX + 1
constexpr int kCollLast = kCollFirst - (kCollCount - 1);
constexpr int kFirstFreeBelowColl = kCollLast - 1;

}  // namespace plexus::mpi::tags
