// A datatype's layout as bytes another process turns back into a handle (osc services
// dtype_encode / dtype_decode / dtype_release): an origin ships its target type with the
// operation, and the target builds the same type map from it. Predefined types travel by their
// number, derived ones by their combiner and constructor arguments (what MPI_Type_get_contents
// returns), recursively; subarray and darray types by the equivalent type they are built of.
// Processes of one job share the byte order and the predefined table, so nothing is converted.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "mpi/datatype.h"

namespace plexus::mpi::osc {

// Appends type's description to out.
void dtype_encode(const Datatype &type, std::vector<uint8_t> *out);

// A committed handle with the type map the bytes describe, or nullptr when they are not a
// description dtype_encode wrote (truncated, trailing bytes, unknown combiner or number,
// arguments a constructor would refuse). A derived result is released with dtype_release.
Datatype *dtype_decode(const uint8_t *data, size_t len);

// Frees what dtype_decode returned (predefined handles are left alone).
void dtype_release(Datatype *type);

}  // namespace plexus::mpi::osc
