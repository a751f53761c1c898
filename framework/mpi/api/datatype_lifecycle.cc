// MPI_Type_commit and MPI_Type_free. A freed type's handle becomes MPI_DATATYPE_NULL; the object
// itself lives on while pending requests, persistent requests or other types use it. Freeing
// the last handle runs the delete callbacks of the attributes cached on it.
#include <string>

#include "mpi/api/profiling.h"
#include "mpi/attributes/type_attributes.h"
#include "mpi/datatype/construct.h"
#include "mpi/datatype/type_args.h"
#include "mpi/mpi_state.h"

using namespace plexus::mpi;

extern "C" {

PLEXUS_MPI_ALIAS(Type_commit)
int PMPI_Type_commit(MPI_Datatype *datatype) {
    constexpr const char *fn = "MPI_Type_commit";
    running(fn);
    if (!datatype)
        return report_errorf(MPI_COMM_WORLD, MPI_ERR_ARG, "%s: datatype is NULL (the address of the handle)", fn);
    if (int rc = check_type_arg(fn, *datatype, "datatype")) return rc;
    commit(*datatype);
    return MPI_SUCCESS;
}

PLEXUS_MPI_ALIAS(Type_free)
int PMPI_Type_free(MPI_Datatype *datatype) {
    constexpr const char *fn = "MPI_Type_free";
    running(fn);
    if (!datatype)
        return report_errorf(MPI_COMM_WORLD, MPI_ERR_ARG, "%s: datatype is NULL (the address of the handle)", fn);
    if (int rc = check_type_arg(fn, *datatype, "datatype")) return rc;
    if ((*datatype)->predefined)
        return report_errorf(MPI_COMM_WORLD, MPI_ERR_TYPE, "%s: %s is a predefined datatype: only derived ones are freed",
                             fn, type_name(*datatype).c_str());
    // The attributes' delete callbacks run with the last handle; a failing one's code is the call's.
    if (int rc = free_type(*datatype))
        return report_code(MPI_COMM_WORLD, rc,
                           std::string(fn) + ": a delete callback of an attribute cached on " +
                               type_name(*datatype) + " returned error " + std::to_string(rc) +
                               "; the datatype was not freed (its attributes are gone)");
    *datatype = MPI_DATATYPE_NULL;
    return MPI_SUCCESS;
}

}  // extern "C"
