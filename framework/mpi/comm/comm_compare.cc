// Comparing communicators through their groups.
#include "mpi/comm/comm_compare.h"

#include <algorithm>

#include "mpi/comm/group_ops.h"

namespace plexus::mpi {

int comm_compare(const Comm *a, const Comm *b) {
    if (a == b) return MPI_IDENT;
    if (a->inter != b->inter) return MPI_UNEQUAL;
    // MPI_IDENT < MPI_CONGRUENT-as-IDENT-groups < MPI_SIMILAR < MPI_UNEQUAL: the worse of the two.
    int result = group_compare(a->local_procs, b->local_procs);
    if (a->inter) result = std::max(result, group_compare(a->remote_procs, b->remote_procs));
    return result == MPI_IDENT ? MPI_CONGRUENT : result;
}

}  // namespace plexus::mpi
