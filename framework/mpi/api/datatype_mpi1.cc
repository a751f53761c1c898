// The MPI-1 datatype calls that MPI-2.2 still has (deprecated; MPI-3.0 removed them):
// MPI_Type_extent, MPI_Type_lb, MPI_Type_ub, MPI_Type_hvector, MPI_Type_hindexed,
// MPI_Type_struct and MPI_Address. The constructors make exactly what their MPI-2 forms make
// (MPI_COMBINER_HVECTOR, _HINDEXED, _STRUCT, as MPI-2.2 table 4.1 says for C); MPI_LB and
// MPI_UB markers work in both struct forms (datatype/construct.cc).
#include <cstdint>
#include <string>

#include "mpi/api/profiling.h"
#include "mpi/arg_check.h"
#include "mpi/datatype/construct.h"
#include "mpi/datatype/type_args.h"
#include "mpi/mpi_state.h"

using namespace plexus::mpi;

namespace {

// The queries' common checks: a type and somewhere to write.
int check_query(const char *fn, const Datatype *type, const void *out, const char *out_name) {
    if (int rc = check_type_arg(fn, type, "datatype")) return rc;
    return check_pointer(fn, MPI_COMM_WORLD, out, out_name);
}

}  // namespace

extern "C" {

PLEXUS_MPI_ALIAS(Type_extent)
int PMPI_Type_extent(MPI_Datatype datatype, MPI_Aint *extent) {
    constexpr const char *fn = "MPI_Type_extent";
    running(fn);
    if (int rc = check_query(fn, datatype, extent, "extent")) return rc;
    *extent = datatype->extent;
    return MPI_SUCCESS;
}

PLEXUS_MPI_ALIAS(Type_lb)
int PMPI_Type_lb(MPI_Datatype datatype, MPI_Aint *displacement) {
    constexpr const char *fn = "MPI_Type_lb";
    running(fn);
    if (int rc = check_query(fn, datatype, displacement, "displacement")) return rc;
    *displacement = datatype->lb;
    return MPI_SUCCESS;
}

PLEXUS_MPI_ALIAS(Type_ub)
int PMPI_Type_ub(MPI_Datatype datatype, MPI_Aint *displacement) {
    constexpr const char *fn = "MPI_Type_ub";
    running(fn);
    if (int rc = check_query(fn, datatype, displacement, "displacement")) return rc;
    *displacement = datatype->lb + datatype->extent;
    return MPI_SUCCESS;
}

PLEXUS_MPI_ALIAS(Type_hvector)
int PMPI_Type_hvector(int count, int blocklength, MPI_Aint stride, MPI_Datatype oldtype, MPI_Datatype *newtype) {
    constexpr const char *fn = "MPI_Type_hvector";
    running(fn);
    if (int rc = check_count_arg(fn, count, "count")) return rc;
    if (int rc = check_blocklength(fn, blocklength, -1)) return rc;
    if (int rc = check_type_arg(fn, oldtype, "oldtype")) return rc;
    if (int rc = check_newtype(fn, newtype)) return rc;
    *newtype = make_hvector(count, blocklength, stride, oldtype);
    return MPI_SUCCESS;
}

PLEXUS_MPI_ALIAS(Type_hindexed)
int PMPI_Type_hindexed(int count, int array_of_blocklengths[], MPI_Aint array_of_displacements[],
                       MPI_Datatype oldtype, MPI_Datatype *newtype) {
    constexpr const char *fn = "MPI_Type_hindexed";
    running(fn);
    if (int rc = check_indexed(fn, count, array_of_blocklengths, array_of_displacements, oldtype, newtype)) return rc;
    *newtype = make_hindexed(count, array_of_blocklengths, array_of_displacements, oldtype);
    return MPI_SUCCESS;
}

PLEXUS_MPI_ALIAS(Type_struct)
int PMPI_Type_struct(int count, int array_of_blocklengths[], MPI_Aint array_of_displacements[],
                     MPI_Datatype array_of_types[], MPI_Datatype *newtype) {
    constexpr const char *fn = "MPI_Type_struct";
    running(fn);
    if (int rc = check_struct(fn, count, array_of_blocklengths, array_of_displacements, array_of_types, newtype))
        return rc;
    *newtype = make_struct(count, array_of_blocklengths, array_of_displacements, array_of_types);
    return MPI_SUCCESS;
}

PLEXUS_MPI_ALIAS(Address)
int PMPI_Address(void *location, MPI_Aint *address) {
    constexpr const char *fn = "MPI_Address";
    running(fn);
    if (int rc = check_pointer(fn, MPI_COMM_WORLD, address, "address")) return rc;
    *address = static_cast<MPI_Aint>(reinterpret_cast<uintptr_t>(location));
    return MPI_SUCCESS;
}

}  // extern "C"
