// A local send/receive between two typed buffers of this process (the coll services' copy, the
// MPI layer's size-1 collective shortcuts, later local one-sided operations): the packed bytes of (src, src_count, src_type) are laid out
// as (dst, dst_count, dst_type). The two layouts are expected to have the same type signature;
// only the byte counts are compared.
#pragma once

#include "mpi/datatype.h"

namespace plexus::mpi {

// MPI_SUCCESS, or MPI_ERR_TRUNCATE when dst holds fewer bytes than src sends (dst then holds
// what fits, as a truncated receive would), or MPI_ERR_NO_MEM (no staging buffer).
int typed_copy(const void *src, int src_count, const Datatype &src_type, void *dst, int dst_count,
               const Datatype &dst_type);

}  // namespace plexus::mpi
