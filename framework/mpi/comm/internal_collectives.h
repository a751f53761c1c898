// The few collectives communicator construction needs (issue 6's COLL framework comes later and
// is not used here): blocking, over the PML directly, with the reserved negative tags of
// internal_tags.h on the communicator given, so they never match user messages and never
// disturb the user's own traffic on it. Binomial trees: O(log p) rounds; memory is the data
// itself (allgather: p blocks) and nothing more.
//
// The intra-communicator functions run on comm's group (an inter-communicator's are run by the
// callers on its hidden local_comm). leader_exchange is the inter-communicator step: the two
// leaders swap a buffer over a bridge communicator.
//
// Every function returns MPI_SUCCESS or an MPI error class (the PML could not send, a message
// had an unexpected size); the caller reports it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "mpi/comm/context_agreement.h"
#include "mpi/communicator.h"

namespace plexus::mpi::internal {

// Point to point with a library tag; both ends know the size.
int send(Comm *comm, int peer, int tag, const void *buf, size_t bytes);
int recv(Comm *comm, int peer, int tag, void *buf, size_t bytes);
// Send and receive at once (no deadlock when both sides call it toward each other).
int sendrecv(Comm *comm, int peer, int tag, const void *out, size_t out_bytes, void *in, size_t in_bytes);
// Send to dest and receive from source at once.
int shift(Comm *comm, int dest, int source, int tag, const void *out, size_t out_bytes, void *in, size_t in_bytes);

int bcast(Comm *comm, void *buf, size_t bytes, int root);
// A vector whose size only root knows.
int bcast_vector(Comm *comm, std::vector<uint32_t> *v, int root);
// all[r * bytes ..] = rank r's `mine` (all has size * bytes).
int allgather(Comm *comm, const void *mine, size_t bytes, void *all);
int allreduce(Comm *comm, uint64_t *values, size_t n, ReduceOp op);

// The leaders of two groups swap vectors of unknown size over bridge: `out` goes to peer,
// `in` receives peer's. With the given tag (Intercomm_create passes the user's).
int exchange_vectors(Comm *bridge, int peer, int tag, const std::vector<uint32_t> &out, std::vector<uint32_t> *in);

}  // namespace plexus::mpi::internal
