// MPI_Comm_free and the release of every communicator at MPI_Finalize.
#include "mpi/attributes/attribute_hooks.h"
#include "mpi/comm/comm_build.h"
#include "mpi/comm/comm_build_common.h"
#include "mpi/dpm/dpm.h"
#include "mpi/errhandler.h"
#include "mpi/error_report.h"

namespace plexus::mpi {

int comm_free(Comm **handle) {
    Comm *c = *handle;
    build::reap();
    if (int rc = attributes_delete_all(c))
        return report_code(c, rc, "MPI_Comm_free: a delete callback of an attribute cached on " + comm_name(c) +
                                      " returned error " + std::to_string(rc) +
                                      "; the communicator was not freed (the attributes whose callbacks "
                                      "succeeded are gone, the failing ones stay cached)");
    *handle = MPI_COMM_NULL;
    dpm::forget(c);  // MPI_Comm_get_parent gives MPI_COMM_NULL once the parent is freed
    comm_registry().retire(&g_mpi->pml(), g_mpi->requests, c);
    return MPI_SUCCESS;
}

void comms_finalize() {
    comm_registry().release_all(&g_mpi->pml());
    release_all_groups();
    for (Comm *c : {MPI_COMM_WORLD, MPI_COMM_SELF}) {
        if (errhandler_valid(c->errhandler)) errhandler_release(c->errhandler);
        c->errhandler = MPI_ERRORS_ARE_FATAL;
    }
}

}  // namespace plexus::mpi
