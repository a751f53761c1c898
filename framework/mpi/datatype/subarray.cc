// MPI_Type_create_subarray's layout: the fastest dimension is a contiguous run of subsizes
// elements, each slower one an hvector of the faster one at the array's stride; the whole is
// placed at the start's offset and resized to the full array (lb 0), as MPI-2.2 4.1.3 defines it
// with MPI_LB/MPI_UB markers.
#include "mpi/datatype/subarray.h"

#include <vector>

#include "mpi/datatype/construct.h"

namespace plexus::mpi {

// Placed at disp bytes, then resized to lb 0 and `extent`: consumes t's handle.
Datatype *place_and_resize(Datatype *t, MPI_Aint disp, MPI_Aint extent) {
    const int one = 1;
    Datatype *placed = make_hindexed(1, &one, &disp, t);
    free_handle(t);
    Datatype *resized = make_resized(placed, 0, extent);
    free_handle(placed);
    return resized;
}

Datatype *make_subarray(int ndims, const int sizes[], const int subsizes[], const int starts[], int order,
                        Datatype *old) {
    Datatype *t = nullptr;
    MPI_Aint stride = old->extent;  // bytes between neighbours along the dimension being built
    MPI_Aint offset = 0;
    for (int k = ndims - 1; k >= 0; --k) {  // fastest dimension first
        const int d = order == MPI_ORDER_C ? k : ndims - 1 - k;
        Datatype *next = t ? make_hvector(subsizes[d], 1, stride, t) : make_contiguous(subsizes[d], old);
        if (t) free_handle(t);  // next holds it
        t = next;
        offset += MPI_Aint(starts[d]) * stride;
        stride *= sizes[d];
    }
    std::vector<int> ints{ndims};
    for (const int *a : {sizes, subsizes, starts}) ints.insert(ints.end(), a, a + ndims);
    ints.push_back(order);
    return make_equivalent(Combiner::Subarray, std::move(ints), old, place_and_resize(t, offset, stride));
}

}  // namespace plexus::mpi
