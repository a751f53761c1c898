// The datatype calls' argument checks (see type_args.h).
#include "mpi/datatype/type_args.h"

#include <string>

#include "mpi/error_report.h"

namespace plexus::mpi {

int check_type_arg(const char *function, const Datatype *type, const char *name) {
    if (datatype_exists(type)) return MPI_SUCCESS;
    if (!type) return report_errorf(MPI_COMM_WORLD, MPI_ERR_TYPE, "%s: invalid %s: MPI_DATATYPE_NULL", function, name);
    return report_errorf(MPI_COMM_WORLD, MPI_ERR_TYPE,
                         "%s: invalid %s %p: not a datatype (freed, or never made by MPI)", function, name,
                         static_cast<const void *>(type));
}

int check_count_arg(const char *function, int count, const char *name) {
    if (count >= 0) return MPI_SUCCESS;
    return report_errorf(MPI_COMM_WORLD, MPI_ERR_COUNT, "%s: invalid %s %d: counts are 0 or more", function, name,
                         count);
}

int check_blocklength(const char *function, int blocklength, int index) {
    if (blocklength >= 0) return MPI_SUCCESS;
    if (index < 0)
        return report_errorf(MPI_COMM_WORLD, MPI_ERR_ARG, "%s: invalid blocklength %d: block lengths are 0 or more",
                             function, blocklength);
    return report_errorf(MPI_COMM_WORLD, MPI_ERR_ARG,
                         "%s: invalid array_of_blocklengths[%d] = %d: block lengths are 0 or more", function, index,
                         blocklength);
}

int check_blocklengths(const char *function, int count, const int blocklengths[]) {
    for (int i = 0; i < count; ++i)
        if (int rc = check_blocklength(function, blocklengths[i], i)) return rc;
    return MPI_SUCCESS;
}

int check_array(const char *function, const void *array, int count, const char *name) {
    if (array || count == 0) return MPI_SUCCESS;
    return report_errorf(MPI_COMM_WORLD, MPI_ERR_ARG, "%s: %s is NULL with count %d", function, name, count);
}

int check_newtype(const char *function, const MPI_Datatype *newtype) {
    if (newtype) return MPI_SUCCESS;
    return report_errorf(MPI_COMM_WORLD, MPI_ERR_ARG, "%s: newtype is NULL (where the new datatype goes)", function);
}

int check_order(const char *function, int order) {
    if (order == MPI_ORDER_C || order == MPI_ORDER_FORTRAN) return MPI_SUCCESS;
    return report_errorf(MPI_COMM_WORLD, MPI_ERR_ARG, "%s: invalid order %d: MPI_ORDER_C or MPI_ORDER_FORTRAN",
                         function, order);
}

int check_array_extent(const char *function, int ndims, const int sizes[], const Datatype *old, const char *name) {
    MPI_Aint extent = old->extent < 0 ? -old->extent : old->extent;
    for (int i = 0; i < ndims; ++i)
        if (__builtin_mul_overflow(extent, MPI_Aint(sizes[i]), &extent))
            return report_errorf(MPI_COMM_WORLD, MPI_ERR_ARG,
                                 "%s: the array (%s times the extent of oldtype) is larger than an MPI_Aint holds",
                                 function, name);
    return MPI_SUCCESS;
}

int check_indexed(const char *fn, int count, const int blocklengths[], const void *displacements,
                  MPI_Datatype oldtype, MPI_Datatype *newtype) {
    if (int rc = check_count_arg(fn, count, "count")) return rc;
    if (int rc = check_array(fn, blocklengths, count, "array_of_blocklengths")) return rc;
    if (int rc = check_array(fn, displacements, count, "array_of_displacements")) return rc;
    if (int rc = check_blocklengths(fn, count, blocklengths)) return rc;
    if (int rc = check_type_arg(fn, oldtype, "oldtype")) return rc;
    return check_newtype(fn, newtype);
}

int check_struct(const char *fn, int count, const int blocklengths[], const MPI_Aint displacements[],
                 const MPI_Datatype types[], MPI_Datatype *newtype) {
    if (int rc = check_count_arg(fn, count, "count")) return rc;
    if (int rc = check_array(fn, blocklengths, count, "array_of_blocklengths")) return rc;
    if (int rc = check_array(fn, displacements, count, "array_of_displacements")) return rc;
    if (int rc = check_array(fn, types, count, "array_of_types")) return rc;
    if (int rc = check_blocklengths(fn, count, blocklengths)) return rc;
    for (int i = 0; i < count; ++i) {
        const std::string name = "array_of_types[" + std::to_string(i) + "]";
        if (int rc = check_type_arg(fn, types[i], name.c_str())) return rc;
    }
    return check_newtype(fn, newtype);
}

}  // namespace plexus::mpi
