// Barrier. Dissemination (Hensgen, Finkel, Manber): in round k every process signals the one 2^k
// ranks above it and waits for the one 2^k below; after ceil(log2 p) rounds each has heard,
// directly or not, from all. Any size, no root, p * ceil(log2 p) zero-byte messages.
// Linear (for nodes with more ranks than cores, from 3 ranks on): every process signals rank 0,
// which releases them all once it has heard from everyone: two hops whatever p, none of them
// through a relay that has to be scheduled first.
#include "basic_choice.h"
#include "basic_functions.h"
#include "basic_intra.h"
#include "basic_params.h"
#include "basic_tags.h"

namespace plexus::coll_basic {
namespace {

int barrier_dissemination(const Ctx &c) {
    plexus_coll_dtype_t *byte = c.svc->byte_type;
    for (int k = 1; k < c.size; k <<= 1)
        BASIC_TRY(c.sendrecv(nullptr, 0, byte, (c.rank + k) % c.size, nullptr, 0, byte,
                             (c.rank - k + c.size) % c.size));
    return 0;
}

int barrier_linear(const Ctx &c) {
    plexus_coll_dtype_t *byte = c.svc->byte_type;
    if (c.rank != 0) {
        BASIC_TRY(c.send(nullptr, 0, byte, 0));
        return c.recv(nullptr, 0, byte, 0);
    }
    {
        RequestBatch in(c);
        for (int r = 1; r < c.size; ++r) {
            if (in.full()) BASIC_TRY(in.wait());
            BASIC_TRY(c.irecv(nullptr, 0, byte, r, in.next()));
        }
        BASIC_TRY(in.wait());
    }
    RequestBatch out(c);
    for (int r = 1; r < c.size; ++r) {
        if (out.full()) BASIC_TRY(out.wait());
        BASIC_TRY(c.isend(nullptr, 0, byte, r, out.next()));
    }
    return out.wait();
}

}  // namespace

int intra_barrier(plexus_coll_module_t *self, plexus_coll_comm_t *comm) {
    const Ctx c = make_ctx(self, comm, kTagBarrier);
    int algorithm = c.params->barrier_algorithm;
    if (algorithm == kBarrierAuto) algorithm = choose_barrier(*c.params, c.size);
    return algorithm == kBarrierLinear ? barrier_linear(c) : barrier_dissemination(c);
}

}  // namespace plexus::coll_basic
