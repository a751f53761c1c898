// The derived-datatype constructors: MPI_Type_contiguous, vector, create_hvector, indexed,
// create_hindexed, create_indexed_block, create_struct, create_resized, dup. Each checks every
// argument, then hands over to datatype/construct.h; the new type is not committed (except a
// dup of a committed type, which also gets the attributes its copy callbacks ask for).
#include <string>

#include "mpi/api/profiling.h"
#include "mpi/attributes/type_attributes.h"
#include "mpi/datatype/construct.h"
#include "mpi/datatype/type_args.h"
#include "mpi/mpi_state.h"

using namespace plexus::mpi;

extern "C" {

PLEXUS_MPI_ALIAS(Type_contiguous)
int PMPI_Type_contiguous(int count, MPI_Datatype oldtype, MPI_Datatype *newtype) {
    constexpr const char *fn = "MPI_Type_contiguous";
    running(fn);
    if (int rc = check_count_arg(fn, count, "count")) return rc;
    if (int rc = check_type_arg(fn, oldtype, "oldtype")) return rc;
    if (int rc = check_newtype(fn, newtype)) return rc;
    *newtype = make_contiguous(count, oldtype);
    return MPI_SUCCESS;
}

PLEXUS_MPI_ALIAS(Type_vector)
int PMPI_Type_vector(int count, int blocklength, int stride, MPI_Datatype oldtype, MPI_Datatype *newtype) {
    constexpr const char *fn = "MPI_Type_vector";
    running(fn);
    if (int rc = check_count_arg(fn, count, "count")) return rc;
    if (int rc = check_blocklength(fn, blocklength, -1)) return rc;
    if (int rc = check_type_arg(fn, oldtype, "oldtype")) return rc;
    if (int rc = check_newtype(fn, newtype)) return rc;
    *newtype = make_vector(count, blocklength, stride, oldtype);
    return MPI_SUCCESS;
}

PLEXUS_MPI_ALIAS(Type_create_hvector)
int PMPI_Type_create_hvector(int count, int blocklength, MPI_Aint stride, MPI_Datatype oldtype,
                             MPI_Datatype *newtype) {
    constexpr const char *fn = "MPI_Type_create_hvector";
    running(fn);
    if (int rc = check_count_arg(fn, count, "count")) return rc;
    if (int rc = check_blocklength(fn, blocklength, -1)) return rc;
    if (int rc = check_type_arg(fn, oldtype, "oldtype")) return rc;
    if (int rc = check_newtype(fn, newtype)) return rc;
    *newtype = make_hvector(count, blocklength, stride, oldtype);
    return MPI_SUCCESS;
}

PLEXUS_MPI_ALIAS(Type_indexed)
int PMPI_Type_indexed(int count, const int array_of_blocklengths[], const int array_of_displacements[],
                      MPI_Datatype oldtype, MPI_Datatype *newtype) {
    constexpr const char *fn = "MPI_Type_indexed";
    running(fn);
    if (int rc = check_indexed(fn, count, array_of_blocklengths, array_of_displacements, oldtype, newtype)) return rc;
    *newtype = make_indexed(count, array_of_blocklengths, array_of_displacements, oldtype);
    return MPI_SUCCESS;
}

PLEXUS_MPI_ALIAS(Type_create_hindexed)
int PMPI_Type_create_hindexed(int count, const int array_of_blocklengths[], const MPI_Aint array_of_displacements[],
                              MPI_Datatype oldtype, MPI_Datatype *newtype) {
    constexpr const char *fn = "MPI_Type_create_hindexed";
    running(fn);
    if (int rc = check_indexed(fn, count, array_of_blocklengths, array_of_displacements, oldtype, newtype)) return rc;
    *newtype = make_hindexed(count, array_of_blocklengths, array_of_displacements, oldtype);
    return MPI_SUCCESS;
}

PLEXUS_MPI_ALIAS(Type_create_indexed_block)
int PMPI_Type_create_indexed_block(int count, int blocklength, const int array_of_displacements[],
                                   MPI_Datatype oldtype, MPI_Datatype *newtype) {
    constexpr const char *fn = "MPI_Type_create_indexed_block";
    running(fn);
    if (int rc = check_count_arg(fn, count, "count")) return rc;
    if (int rc = check_blocklength(fn, blocklength, -1)) return rc;
    if (int rc = check_array(fn, array_of_displacements, count, "array_of_displacements")) return rc;
    if (int rc = check_type_arg(fn, oldtype, "oldtype")) return rc;
    if (int rc = check_newtype(fn, newtype)) return rc;
    *newtype = make_indexed_block(count, blocklength, array_of_displacements, oldtype);
    return MPI_SUCCESS;
}

PLEXUS_MPI_ALIAS(Type_create_struct)
int PMPI_Type_create_struct(int count, const int array_of_blocklengths[], const MPI_Aint array_of_displacements[],
                            const MPI_Datatype array_of_types[], MPI_Datatype *newtype) {
    constexpr const char *fn = "MPI_Type_create_struct";
    running(fn);
    if (int rc = check_struct(fn, count, array_of_blocklengths, array_of_displacements, array_of_types, newtype))
        return rc;
    *newtype = make_struct(count, array_of_blocklengths, array_of_displacements, array_of_types);
    return MPI_SUCCESS;
}

PLEXUS_MPI_ALIAS(Type_create_resized)
int PMPI_Type_create_resized(MPI_Datatype oldtype, MPI_Aint lb, MPI_Aint extent, MPI_Datatype *newtype) {
    constexpr const char *fn = "MPI_Type_create_resized";
    running(fn);
    if (int rc = check_type_arg(fn, oldtype, "oldtype")) return rc;
    if (int rc = check_newtype(fn, newtype)) return rc;
    *newtype = make_resized(oldtype, lb, extent);
    return MPI_SUCCESS;
}

PLEXUS_MPI_ALIAS(Type_dup)
int PMPI_Type_dup(MPI_Datatype oldtype, MPI_Datatype *newtype) {
    constexpr const char *fn = "MPI_Type_dup";
    running(fn);
    if (int rc = check_type_arg(fn, oldtype, "oldtype")) return rc;
    if (int rc = check_newtype(fn, newtype)) return rc;
    // The attributes' copy callbacks run here; a failing one's code is the call's.
    if (int rc = dup_type(oldtype, newtype))
        return report_code(MPI_COMM_WORLD, rc,
                           std::string(fn) + ": a copy callback of an attribute cached on " + type_name(oldtype) +
                               " returned error " + std::to_string(rc) + "; the duplicate was not made");
    return MPI_SUCCESS;
}

}  // extern "C"
