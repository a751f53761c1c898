// MPI_Type_get_envelope and MPI_Type_get_contents: how a type was made. Derived types handed
// back are new handles (the program frees them); predefined ones are the handles themselves.
#include <algorithm>

#include "mpi/api/profiling.h"
#include "mpi/arg_check.h"
#include "mpi/datatype/construct.h"
#include "mpi/datatype/derived_type.h"
#include "mpi/datatype/type_args.h"
#include "mpi/mpi_state.h"

using namespace plexus::mpi;

extern "C" {

PLEXUS_MPI_ALIAS(Type_get_envelope)
int PMPI_Type_get_envelope(MPI_Datatype datatype, int *num_integers, int *num_addresses, int *num_datatypes,
                           int *combiner) {
    constexpr const char *fn = "MPI_Type_get_envelope";
    running(fn);
    if (int rc = check_type_arg(fn, datatype, "datatype")) return rc;
    if (int rc = check_pointer(fn, MPI_COMM_WORLD, num_integers, "num_integers")) return rc;
    if (int rc = check_pointer(fn, MPI_COMM_WORLD, num_addresses, "num_addresses")) return rc;
    if (int rc = check_pointer(fn, MPI_COMM_WORLD, num_datatypes, "num_datatypes")) return rc;
    if (int rc = check_pointer(fn, MPI_COMM_WORLD, combiner, "combiner")) return rc;
    *combiner = static_cast<int>(datatype->combiner);
    if (datatype->predefined) {
        *num_integers = *num_addresses = *num_datatypes = 0;
        return MPI_SUCCESS;
    }
    const DerivedType &d = *datatype->derived;
    *num_integers = static_cast<int>(d.ints.size());
    *num_addresses = static_cast<int>(d.aints.size());
    *num_datatypes = static_cast<int>(d.types.size());
    return MPI_SUCCESS;
}

PLEXUS_MPI_ALIAS(Type_get_contents)
int PMPI_Type_get_contents(MPI_Datatype datatype, int max_integers, int max_addresses, int max_datatypes,
                           int array_of_integers[], MPI_Aint array_of_addresses[], MPI_Datatype array_of_datatypes[]) {
    constexpr const char *fn = "MPI_Type_get_contents";
    running(fn);
    if (int rc = check_type_arg(fn, datatype, "datatype")) return rc;
    if (datatype->predefined)
        return report_errorf(MPI_COMM_WORLD, MPI_ERR_ARG,
                             "%s: %s is a predefined datatype (MPI_COMBINER_NAMED): it has no contents", fn,
                             type_name(datatype).c_str());
    const DerivedType &d = *datatype->derived;
    struct Want {
        const char *name;
        int max;
        size_t needed;
        const void *array;
    } wants[] = {{"max_integers", max_integers, d.ints.size(), array_of_integers},
                 {"max_addresses", max_addresses, d.aints.size(), array_of_addresses},
                 {"max_datatypes", max_datatypes, d.types.size(), array_of_datatypes}};
    for (const Want &w : wants) {
        if (w.max < 0 || size_t(w.max) < w.needed)
            return report_errorf(MPI_COMM_WORLD, MPI_ERR_ARG,
                                 "%s: %s is %d; this type has %zu (MPI_Type_get_envelope says how many)", fn, w.name,
                                 w.max, w.needed);
        if (w.needed && !w.array)
            return report_errorf(MPI_COMM_WORLD, MPI_ERR_ARG, "%s: the array for %s is NULL; this type has %zu", fn,
                                 w.name, w.needed);
    }
    std::copy(d.ints.begin(), d.ints.end(), array_of_integers);
    std::copy(d.aints.begin(), d.aints.end(), array_of_addresses);
    for (size_t i = 0; i < d.types.size(); ++i) {
        add_handle(d.types[i]);
        array_of_datatypes[i] = d.types[i];
    }
    return MPI_SUCCESS;
}

}  // extern "C"
