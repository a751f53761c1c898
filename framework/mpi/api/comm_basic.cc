// A communicator's rank, size and name (MPI_Comm_rank, size, get_name, set_name). For an
// inter-communicator, rank and size are those of the local group.
#include <cstring>

#include "mpi/api/profiling.h"
#include "mpi/arg_check.h"
#include "mpi/mpi_state.h"

using namespace plexus::mpi;

extern "C" {

PLEXUS_MPI_ALIAS(Comm_rank)
int PMPI_Comm_rank(MPI_Comm comm, int *rank) {
    running("MPI_Comm_rank");
    if (int rc = check_comm("MPI_Comm_rank", comm)) return rc;
    if (int rc = check_pointer("MPI_Comm_rank", comm, rank, "rank")) return rc;
    *rank = comm->rank;
    return MPI_SUCCESS;
}

PLEXUS_MPI_ALIAS(Comm_size)
int PMPI_Comm_size(MPI_Comm comm, int *size) {
    running("MPI_Comm_size");
    if (int rc = check_comm("MPI_Comm_size", comm)) return rc;
    if (int rc = check_pointer("MPI_Comm_size", comm, size, "size")) return rc;
    *size = comm->size();
    return MPI_SUCCESS;
}

PLEXUS_MPI_ALIAS(Comm_get_name)
int PMPI_Comm_get_name(MPI_Comm comm, char *comm_name, int *resultlen) {
    constexpr const char *fn = "MPI_Comm_get_name";
    running(fn);
    if (int rc = check_comm(fn, comm)) return rc;
    if (int rc = check_pointer(fn, comm, comm_name, "comm_name")) return rc;
    if (int rc = check_pointer(fn, comm, resultlen, "resultlen")) return rc;
    const size_t n = comm->name.size() < MPI_MAX_OBJECT_NAME ? comm->name.size() : MPI_MAX_OBJECT_NAME - 1;
    std::memcpy(comm_name, comm->name.data(), n);
    comm_name[n] = '\0';
    *resultlen = static_cast<int>(n);
    return MPI_SUCCESS;
}

PLEXUS_MPI_ALIAS(Comm_set_name)
int PMPI_Comm_set_name(MPI_Comm comm, const char *comm_name) {
    constexpr const char *fn = "MPI_Comm_set_name";
    running(fn);
    if (int rc = check_comm(fn, comm)) return rc;
    if (int rc = check_pointer(fn, comm, comm_name, "comm_name")) return rc;
    // MPI: longer names are cut to what MPI_Comm_get_name can return.
    comm->name.assign(comm_name, strnlen(comm_name, MPI_MAX_OBJECT_NAME - 1));
    return MPI_SUCCESS;
}

}  // extern "C"
