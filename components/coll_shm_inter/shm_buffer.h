// A typed MPI buffer seen as the packed bytes the engine moves: the buffer itself when its
// datatype is contiguous, otherwise a temporary that pack() fills and unpack() empties through
// the services' local copy. And the reduction callback the engine calls, over the services.
#pragma once

#include <climits>
#include <cstddef>
#include <cstdint>
#include <vector>

#include <plexus/coll.h>

#include "shm_engine.h"

namespace plexus::coll_shm_inter {

class Packed {
public:
    // The view of count items of type at buf; PLEXUS_COLL_SUCCESS or the services' error.
    int init(const plexus_coll_services_t *svc, const void *buf, long count,
             plexus_coll_dtype_t *type);
    uint8_t *data() const { return data_; }
    size_t bytes() const { return bytes_; }
    bool direct() const { return direct_; }
    // Non-contiguous layouts: buffer -> temporary, temporary -> buffer.
    int pack() const;
    int unpack() const;

private:
    const plexus_coll_services_t *svc_ = nullptr;
    void *buf_ = nullptr;
    int count_ = 0;
    plexus_coll_dtype_t *type_ = nullptr;
    size_t bytes_ = 0;
    bool direct_ = true;
    uint8_t *data_ = nullptr;
    mutable std::vector<uint8_t> temp_;
};

// The operation of a reduction over the services (op_apply on items of type).
struct OpCall {
    const plexus_coll_services_t *svc;
    plexus_coll_op_t *op;
    plexus_coll_dtype_t *type;
};
Combine combine_of(OpCall *call);

// Whether n bytes fit the int counts of the services.
inline bool fits_int(size_t n) {
    return n <= static_cast<size_t>(INT_MAX);
}

}  // namespace plexus::coll_shm_inter
