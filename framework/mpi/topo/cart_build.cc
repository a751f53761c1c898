// Without reorder the grid's ranks are the old ranks 0..size-1 in order, as MPI-2.2 describes
// the default; with reorder every process first learns where the others run (one allgather) and
// all compute the same placement (grid_map.h), which keeps the identity unless it is better.
#include "mpi/topo/cart_build.h"

#include <numeric>

#include "mpi/comm/comm_build.h"
#include "mpi/comm/comm_build_common.h"
#include "mpi/topo/cart_geometry.h"
#include "mpi/topo/grid_map.h"
#include "mpi/topo/locality_gather.h"
#include "mpi/topo/topo_comm.h"

namespace plexus::mpi::topo {

int cart_create(Comm *comm, int ndims, const int *dims, const int *periods, bool reorder, Comm **out) {
    constexpr const char *fn = "MPI_Cart_create";
    auto grid = std::make_shared<Topology>();
    grid->kind = Kind::Cart;
    grid->dims.assign(dims, dims + ndims);
    for (int i = 0; i < ndims; ++i) grid->periods.push_back(periods[i] ? 1 : 0);
    std::vector<int> members(static_cast<size_t>(grid_size(grid->dims)));
    std::iota(members.begin(), members.end(), 0);
    if (reorder && members.size() > 1) {
        std::vector<Locality> where;
        if (int rc = gather_locality(comm, &where))
            return build::step_failed(fn, comm, "exchanging where the processes run", rc);
        members = grid_map(grid->dims, grid->periods, where);
    }
    return make_topo_comm(fn, comm, members, std::move(grid), out);
}

int cart_sub(Comm *comm, const Topology &grid, const int *remain, Comm **out) {
    // The slice is the row-major index of the dropped coordinates; ordering by old rank keeps the
    // kept coordinates in row-major order, which is what the sub-grid's ranks must be.
    const std::vector<int> coords = cart_coords(grid, comm->rank);
    auto sub = std::make_shared<Topology>();
    sub->kind = Kind::Cart;
    int slice = 0;
    for (int i = 0; i < grid.ndims(); ++i) {
        if (remain[i]) {
            sub->dims.push_back(grid.dims[static_cast<size_t>(i)]);
            sub->periods.push_back(grid.periods[static_cast<size_t>(i)]);
        } else {
            slice = slice * grid.dims[static_cast<size_t>(i)] + coords[static_cast<size_t>(i)];
        }
    }
    if (int rc = comm_split(comm, slice, comm->rank, out)) return rc;
    (*out)->topo = std::move(sub);
    return MPI_SUCCESS;
}

}  // namespace plexus::mpi::topo
