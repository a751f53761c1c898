// Agreeing on context ids for a new communicator: every process that will use it (and, simply,
// every process of the call) must find the ids free. The processes reach each other through an
// AgreementChannel: an allreduce over all of them, whatever their arrangement (one
// intra-communicator; two groups joined by their leaders; later, for dpm, two jobs).
//
// The algorithm, one allreduce (bitwise AND) when the processes use ids alike:
//   1. each process sends the free bits of the window at its own lowest free id (rounded down to
//      64), with that anchor a and ~a in front; the AND returns a and ~a unchanged only when
//      every process had the same anchor, and then the window's common free ids are the answer;
//   2. otherwise base = MAX over processes of each one's lowest free id (no id below it is free
//      everywhere), and windows [base, base + kWindowBits) are ANDed until enough ids are found
//      (also when step 1's window held too few).
// Every process then reserves the ids locally. The ids depend only on the bitmaps, so every
// process computes the same answer.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "mpi/comm/context_id.h"

namespace plexus::mpi {

enum class ReduceOp { Max, BitAnd };

class AgreementChannel {
public:
    virtual ~AgreementChannel() = default;
    // values[0..n) becomes the element-wise op over every process of the channel. MPI_SUCCESS or
    // an MPI error class (the communication failed).
    virtual int allreduce(uint64_t *values, size_t n, ReduceOp op) = 0;
};

constexpr size_t kWindowWords = 4;
constexpr size_t kWindowBits = 64 * kWindowWords;

// `count` ids free at every process of the channel, reserved in ids (ascending) on success.
// MPI_SUCCESS or the error class of the channel.
int agree_context_ids(ContextIdAllocator &ids, AgreementChannel &channel, size_t count, std::vector<uint32_t> *out);

}  // namespace plexus::mpi
