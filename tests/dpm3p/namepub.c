/* namepub: MPI_Publish_name / MPI_Lookup_name / MPI_Unpublish_name. Rank 0 opens a port and
 * publishes it under a service name made unique by its pid; every rank looks the name up (after a
 * barrier) and gets the port byte for byte; after the unpublish (and another barrier) a lookup
 * fails, with the class MPI_ERR_NAME. */
#include "dpm3p.h"

int main(int argc, char **argv)
{
    mt_init(&argc, &argv, 120);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    char service[64], port[MPI_MAX_PORT_NAME] = "", found[MPI_MAX_PORT_NAME] = "";
    int pid = (int)getpid();
    MPI_Bcast(&pid, 1, MPI_INT, 0, MPI_COMM_WORLD);
    snprintf(service, sizeof service, "dpm3p-namepub-%d", pid);
    if (rank == 0) {
        MT_MPI(MPI_Open_port(MPI_INFO_NULL, port));
        MT_MPI(MPI_Publish_name(service, MPI_INFO_NULL, port));
    }
    MPI_Bcast(port, MPI_MAX_PORT_NAME, MPI_CHAR, 0, MPI_COMM_WORLD);
    MT_MPI(MPI_Barrier(MPI_COMM_WORLD));
    MT_MPI(MPI_Lookup_name(service, MPI_INFO_NULL, found));
    MT_CHECK(strcmp(found, port) == 0, "looked up '%s', published '%s'", found, port);
    MT_MPI(MPI_Barrier(MPI_COMM_WORLD));
    if (rank == 0) MT_MPI(MPI_Unpublish_name(service, MPI_INFO_NULL, port));
    MT_MPI(MPI_Barrier(MPI_COMM_WORLD));
    found[0] = '\0';
    const int rc = MPI_Lookup_name(service, MPI_INFO_NULL, found);
    int cls = MPI_SUCCESS;
    MPI_Error_class(rc, &cls);
    MT_CHECK(rc != MPI_SUCCESS, "the lookup after MPI_Unpublish_name found '%s'", found);
    MT_CHECK(rc == MPI_SUCCESS || cls == MPI_ERR_NAME, "the failed lookup's class is %d, not MPI_ERR_NAME", cls);
    if (rank == 0) MT_MPI(MPI_Close_port(port));
    return mt_finalize();
}
