// MPI_Status_set_elements, MPI_Status_set_cancelled: what a generalized request's query_fn (or
// any layer above MPI) writes into a status, so that MPI_Get_elements, MPI_Get_count and
// MPI_Test_cancelled read it back.
#include <algorithm>

#include "mpi/api/profiling.h"
#include "mpi/arg_check.h"
#include "mpi/datatype/derived_type.h"
#include "mpi/datatype/type_args.h"
#include "mpi/mpi_state.h"

using namespace plexus::mpi;

namespace {

// The bytes of the first n basic elements of one item of t (n < elements_per_item(t)), walking
// the type map in order as MPI_Get_elements does the other way round.
size_t bytes_of_part(const Datatype &t, size_t n) {
    size_t bytes = 0;
    if (!t.derived) {
        for (int b = 0; b < t.nblocks && n > 0; ++b, --n) bytes += t.blocks[b].length;
        return bytes;
    }
    for (const ChildRun &run : child_runs(t)) {
        const Datatype &c = *run.type;
        const size_t per_item = elements_per_item(c);
        if (per_item == 0) continue;
        const size_t whole = std::min(run.repeat, n / per_item);
        bytes += whole * c.size;
        n -= whole * per_item;
        if (whole < run.repeat) return n ? bytes + bytes_of_part(c, n) : bytes;
    }
    return bytes;
}

size_t bytes_of_elements(const Datatype &t, size_t count) {
    const size_t per_item = elements_per_item(t);
    return count / per_item * t.size + bytes_of_part(t, count % per_item);
}

}  // namespace

extern "C" {

// The status then holds count basic elements of datatype: MPI_Get_elements(status, datatype)
// gives count back, MPI_Get_count the items they make (MPI_UNDEFINED for a partial one).
PLEXUS_MPI_ALIAS(Status_set_elements)
int PMPI_Status_set_elements(MPI_Status *status, MPI_Datatype datatype, int count) {
    constexpr const char *fn = "MPI_Status_set_elements";
    running(fn);
    if (int rc = check_pointer(fn, MPI_COMM_WORLD, status, "status")) return rc;
    if (int rc = check_type_arg(fn, datatype, "datatype")) return rc;
    if (int rc = check_count_arg(fn, count, "count")) return rc;
    if (count > 0 && elements_per_item(*datatype) == 0)
        return report_errorf(MPI_COMM_WORLD, MPI_ERR_ARG, "%s: invalid count %d: %s has no basic elements", fn, count,
                             type_name(datatype).c_str());
    status->plexus_count = count ? bytes_of_elements(*datatype, static_cast<size_t>(count)) : 0;
    return MPI_SUCCESS;
}

PLEXUS_MPI_ALIAS(Status_set_cancelled)
int PMPI_Status_set_cancelled(MPI_Status *status, int flag) {
    constexpr const char *fn = "MPI_Status_set_cancelled";
    running(fn);
    if (int rc = check_pointer(fn, MPI_COMM_WORLD, status, "status")) return rc;
    status->plexus_cancelled = flag != 0;
    return MPI_SUCCESS;
}

}  // extern "C"
