// Barrier by dissemination (Hensgen, Finkel, Manber): in round k every process signals the one
// 2^k ranks above it and waits for the one 2^k below; after ceil(log2 p) rounds each has heard,
// directly or not, from all. Any size, no root, p * ceil(log2 p) zero-byte messages.
#include "basic_functions.h"
#include "basic_intra.h"
#include "basic_tags.h"

namespace plexus::coll_basic {

int intra_barrier(plexus_coll_module_t *self, plexus_coll_comm_t *comm) {
    const Ctx c = make_ctx(self, comm, kTagBarrier);
    plexus_coll_dtype_t *byte = c.svc->byte_type;
    for (int k = 1; k < c.size; k <<= 1)
        BASIC_TRY(c.sendrecv(nullptr, 0, byte, (c.rank + k) % c.size, nullptr, 0, byte,
                             (c.rank - k + c.size) % c.size));
    return 0;
}

}  // namespace plexus::coll_basic
