// MPI_Type_match_size: the predefined type of a class (integer, real, complex) and a size in
// bytes. Plexus has no Fortran types, so the answer is the C type of that size (MPI-2.2 asks
// for a predefined type; which one, for C, is the implementation's choice).
#include "mpi/api/profiling.h"
#include "mpi/arg_check.h"
#include "mpi/mpi_state.h"

using namespace plexus::mpi;

namespace {

MPI_Datatype match(int typeclass, int size) {
    switch (typeclass) {
        case MPI_TYPECLASS_INTEGER:
            for (MPI_Datatype t : {MPI_INT8_T, MPI_INT16_T, MPI_INT32_T, MPI_INT64_T})
                if (int(t->size) == size) return t;
            break;
        case MPI_TYPECLASS_REAL:
            for (MPI_Datatype t : {MPI_FLOAT, MPI_DOUBLE, MPI_LONG_DOUBLE})
                if (int(t->size) == size) return t;
            break;
        case MPI_TYPECLASS_COMPLEX:
            for (MPI_Datatype t : {MPI_C_FLOAT_COMPLEX, MPI_C_DOUBLE_COMPLEX, MPI_C_LONG_DOUBLE_COMPLEX})
                if (int(t->size) == size) return t;
            break;
    }
    return MPI_DATATYPE_NULL;
}

}  // namespace

extern "C" {

PLEXUS_MPI_ALIAS(Type_match_size)
int PMPI_Type_match_size(int typeclass, int size, MPI_Datatype *datatype) {
    constexpr const char *fn = "MPI_Type_match_size";
    running(fn);
    if (int rc = check_pointer(fn, MPI_COMM_WORLD, datatype, "datatype")) return rc;
    static constexpr const char *kClasses[] = {nullptr, "MPI_TYPECLASS_REAL", "MPI_TYPECLASS_INTEGER",
                                               "MPI_TYPECLASS_COMPLEX"};
    if (typeclass < MPI_TYPECLASS_REAL || typeclass > MPI_TYPECLASS_COMPLEX)
        return report_errorf(MPI_COMM_WORLD, MPI_ERR_ARG,
                             "%s: invalid typeclass %d: MPI_TYPECLASS_INTEGER, _REAL or _COMPLEX", fn, typeclass);
    const MPI_Datatype t = match(typeclass, size);
    if (!t)
        return report_errorf(MPI_COMM_WORLD, MPI_ERR_ARG, "%s: no %s type has size %d", fn, kClasses[typeclass], size);
    *datatype = t;
    return MPI_SUCCESS;
}

}  // extern "C"
