// MPI_Type_set_name and MPI_Type_get_name. Predefined types come named ("MPI_INT"); derived
// ones are unnamed ("") until named.
#include <cstring>

#include "mpi/api/profiling.h"
#include "mpi/arg_check.h"
#include "mpi/datatype/type_args.h"
#include "mpi/mpi_state.h"

using namespace plexus::mpi;

extern "C" {

PLEXUS_MPI_ALIAS(Type_set_name)
int PMPI_Type_set_name(MPI_Datatype datatype, const char *type_name) {
    constexpr const char *fn = "MPI_Type_set_name";
    running(fn);
    if (int rc = check_type_arg(fn, datatype, "datatype")) return rc;
    if (int rc = check_pointer(fn, MPI_COMM_WORLD, type_name, "type_name")) return rc;
    const size_t length = std::strlen(type_name);
    if (length >= sizeof datatype->name)
        return report_errorf(MPI_COMM_WORLD, MPI_ERR_ARG,
                             "%s: type_name has %zu characters; names have at most %d (MPI_MAX_OBJECT_NAME - 1)", fn,
                             length, MPI_MAX_OBJECT_NAME - 1);
    std::memcpy(datatype->name, type_name, length + 1);
    return MPI_SUCCESS;
}

PLEXUS_MPI_ALIAS(Type_get_name)
int PMPI_Type_get_name(MPI_Datatype datatype, char *type_name, int *resultlen) {
    constexpr const char *fn = "MPI_Type_get_name";
    running(fn);
    if (int rc = check_type_arg(fn, datatype, "datatype")) return rc;
    if (int rc = check_pointer(fn, MPI_COMM_WORLD, type_name, "type_name")) return rc;
    if (int rc = check_pointer(fn, MPI_COMM_WORLD, resultlen, "resultlen")) return rc;
    const size_t length = strnlen(datatype->name, sizeof datatype->name - 1);
    std::memcpy(type_name, datatype->name, length);
    type_name[length] = '\0';
    *resultlen = static_cast<int>(length);
    return MPI_SUCCESS;
}

}  // extern "C"
