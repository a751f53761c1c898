// Cartesian topologies (MPI-2.2 7.5.1, 7.5.4, 7.5.5, 7.5.6, 7.5.7): Dims_create, Cart_create and
// the Cartesian queries, shifts, Cart_sub and Cart_map. The model is in topo/.
#include <algorithm>
#include <initializer_list>
#include <utility>

#include "mpi/api/profiling.h"
#include "mpi/arg_check.h"
#include "mpi/mpi_state.h"
#include "mpi/topo/cart_build.h"
#include "mpi/topo/cart_geometry.h"
#include "mpi/topo/dims_create.h"
#include "mpi/topo/topo_checks.h"

using namespace plexus::mpi;
using namespace plexus::mpi::topo;

namespace {

// dims of MPI_Dims_create: entries >= 0 whose non-zero ones divide nnodes.
int check_dims_request(const char *fn, int nnodes, int ndims, const int *dims) {
    if (nnodes <= 0)
        return report_errorf(nullptr, MPI_ERR_ARG, "%s: invalid nnodes %d: the grid needs 1 or more processes", fn,
                             nnodes);
    if (ndims < 0)
        return report_errorf(nullptr, MPI_ERR_DIMS, "%s: invalid ndims %d: a grid has 0 or more dimensions", fn, ndims);
    if (ndims > 0)
        if (int rc = check_pointer(fn, nullptr, dims, "dims")) return rc;
    long long fixed = 1;
    bool free_slot = false;
    for (int i = 0; i < ndims; ++i) {
        if (dims[i] < 0)
            return report_errorf(nullptr, MPI_ERR_DIMS,
                                 "%s: invalid dims[%d] = %d: entries are 0 (to be chosen) or a fixed extent", fn, i,
                                 dims[i]);
        if (dims[i] == 0) free_slot = true;
        else if ((fixed *= dims[i]) > nnodes) break;
    }
    if (nnodes % fixed == 0 && (free_slot || fixed == nnodes)) return MPI_SUCCESS;
    return report_errorf(nullptr, MPI_ERR_DIMS,
                         "%s: the fixed entries of dims multiply to %s%lld, which %s nnodes %d", fn,
                         fixed > nnodes ? "more than " : "", fixed > nnodes ? static_cast<long long>(nnodes) : fixed,
                         free_slot ? "does not divide" : "is not", nnodes);
}

// maxdims >= 0, and every array given when something is to be written to it.
int check_out_arrays(const char *fn, const Comm *comm, int maxdims, int ndims,
                     std::initializer_list<std::pair<const void *, const char *>> arrays) {
    if (int rc = check_count(fn, comm, maxdims, "maxdims")) return rc;
    if (std::min(maxdims, ndims) == 0) return MPI_SUCCESS;
    for (const auto &[p, name] : arrays)
        if (int rc = check_pointer(fn, comm, p, name)) return rc;
    return MPI_SUCCESS;
}

}  // namespace

extern "C" {

PLEXUS_MPI_ALIAS(Dims_create)
int PMPI_Dims_create(int nnodes, int ndims, int dims[]) {
    constexpr const char *fn = "MPI_Dims_create";
    running(fn);
    if (int rc = check_dims_request(fn, nnodes, ndims, dims)) return rc;
    std::vector<int> v(dims, dims + ndims);
    dims_create(nnodes, v);
    std::copy(v.begin(), v.end(), dims);
    return MPI_SUCCESS;
}

PLEXUS_MPI_ALIAS(Cart_create)
int PMPI_Cart_create(MPI_Comm comm_old, int ndims, const int dims[], const int periods[], int reorder,
                     MPI_Comm *comm_cart) {
    constexpr const char *fn = "MPI_Cart_create";
    running(fn);
    if (int rc = check_topology_parent(fn, comm_old)) return rc;
    if (int rc = check_grid(fn, comm_old, ndims, dims, periods)) return rc;
    if (int rc = check_pointer(fn, comm_old, comm_cart, "comm_cart")) return rc;
    return cart_create(comm_old, ndims, dims, periods, reorder != 0, comm_cart);
}

PLEXUS_MPI_ALIAS(Cartdim_get)
int PMPI_Cartdim_get(MPI_Comm comm, int *ndims) {
    constexpr const char *fn = "MPI_Cartdim_get";
    running(fn);
    const Topology *t;
    if (int rc = check_topology(fn, comm, Kind::Cart, &t)) return rc;
    if (int rc = check_pointer(fn, comm, ndims, "ndims")) return rc;
    *ndims = t->ndims();
    return MPI_SUCCESS;
}

// maxdims below the grid's dimensions gives the first maxdims entries (MPI-2.2 calls maxdims the
// length of the arrays, so that is all the caller has room for).
PLEXUS_MPI_ALIAS(Cart_get)
int PMPI_Cart_get(MPI_Comm comm, int maxdims, int dims[], int periods[], int coords[]) {
    constexpr const char *fn = "MPI_Cart_get";
    running(fn);
    const Topology *t;
    if (int rc = check_topology(fn, comm, Kind::Cart, &t)) return rc;
    if (int rc = check_out_arrays(fn, comm, maxdims, t->ndims(), {{dims, "dims"}, {periods, "periods"}, {coords, "coords"}}))
        return rc;
    const std::vector<int> here = cart_coords(*t, comm->rank);
    for (int i = 0; i < std::min(maxdims, t->ndims()); ++i) {
        dims[i] = t->dims[static_cast<size_t>(i)];
        periods[i] = t->periods[static_cast<size_t>(i)];
        coords[i] = here[static_cast<size_t>(i)];
    }
    return MPI_SUCCESS;
}

PLEXUS_MPI_ALIAS(Cart_rank)
int PMPI_Cart_rank(MPI_Comm comm, const int coords[], int *rank) {
    constexpr const char *fn = "MPI_Cart_rank";
    running(fn);
    const Topology *t;
    if (int rc = check_topology(fn, comm, Kind::Cart, &t)) return rc;
    if (t->ndims() > 0)
        if (int rc = check_pointer(fn, comm, coords, "coords")) return rc;
    if (int rc = check_pointer(fn, comm, rank, "rank")) return rc;
    int bad = 0;
    const int r = cart_rank(*t, coords, &bad);
    if (r < 0)
        return report_errorf(comm, MPI_ERR_ARG,
                             "%s: invalid coords[%d] = %d: dimension %d is not periodic and has coordinates 0..%d",
                             fn, bad, coords[bad], bad, t->dims[static_cast<size_t>(bad)] - 1);
    *rank = r;
    return MPI_SUCCESS;
}

PLEXUS_MPI_ALIAS(Cart_coords)
int PMPI_Cart_coords(MPI_Comm comm, int rank, int maxdims, int coords[]) {
    constexpr const char *fn = "MPI_Cart_coords";
    running(fn);
    const Topology *t;
    if (int rc = check_topology(fn, comm, Kind::Cart, &t)) return rc;
    if (rank < 0 || rank >= comm->size())
        return report_errorf(comm, MPI_ERR_RANK, "%s: invalid rank %d: %s has ranks 0..%d", fn, rank,
                             comm_name(comm).c_str(), comm->size() - 1);
    if (int rc = check_out_arrays(fn, comm, maxdims, t->ndims(), {{coords, "coords"}})) return rc;
    const std::vector<int> c = cart_coords(*t, rank);
    std::copy_n(c.begin(), std::min(maxdims, t->ndims()), coords);
    return MPI_SUCCESS;
}

PLEXUS_MPI_ALIAS(Cart_shift)
int PMPI_Cart_shift(MPI_Comm comm, int direction, int disp, int *rank_source, int *rank_dest) {
    constexpr const char *fn = "MPI_Cart_shift";
    running(fn);
    const Topology *t;
    if (int rc = check_topology(fn, comm, Kind::Cart, &t)) return rc;
    if (direction < 0 || direction >= t->ndims())
        return report_errorf(comm, MPI_ERR_ARG, "%s: invalid direction %d: the grid of %s has dimensions 0..%d", fn,
                             direction, comm_name(comm).c_str(), t->ndims() - 1);
    if (int rc = check_pointer(fn, comm, rank_source, "rank_source")) return rc;
    if (int rc = check_pointer(fn, comm, rank_dest, "rank_dest")) return rc;
    cart_shift(*t, comm->rank, direction, disp, rank_source, rank_dest);
    return MPI_SUCCESS;
}

PLEXUS_MPI_ALIAS(Cart_sub)
int PMPI_Cart_sub(MPI_Comm comm, const int remain_dims[], MPI_Comm *newcomm) {
    constexpr const char *fn = "MPI_Cart_sub";
    running(fn);
    const Topology *t;
    if (int rc = check_topology(fn, comm, Kind::Cart, &t)) return rc;
    if (t->ndims() > 0)
        if (int rc = check_pointer(fn, comm, remain_dims, "remain_dims")) return rc;
    if (int rc = check_pointer(fn, comm, newcomm, "newcomm")) return rc;
    return cart_sub(comm, *t, remain_dims, newcomm);
}

// The grid's placement is chosen by MPI_Cart_create, which can ask the other processes where they
// run; MPI_Cart_map is local and keeps the order: rank r takes grid position r.
PLEXUS_MPI_ALIAS(Cart_map)
int PMPI_Cart_map(MPI_Comm comm, int ndims, const int dims[], const int periods[], int *newrank) {
    constexpr const char *fn = "MPI_Cart_map";
    running(fn);
    if (int rc = check_topology_parent(fn, comm)) return rc;
    if (int rc = check_grid(fn, comm, ndims, dims, periods)) return rc;
    if (int rc = check_pointer(fn, comm, newrank, "newrank")) return rc;
    const long long cells = grid_size(std::vector<int>(dims, dims + ndims));
    *newrank = comm->rank < cells ? comm->rank : MPI_UNDEFINED;
    return MPI_SUCCESS;
}

}  // extern "C"
