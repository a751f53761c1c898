/* selfconacc: two processes of one job connect to each other through a port, each over
 * MPI_COMM_SELF: rank 0 opens the port and sends its name to rank 1 over MPI_COMM_WORLD, then
 * accepts while rank 1 connects; over the new inter-communicator rank 1 sends a value that rank 0
 * checks and answers; both disconnect and rank 0 closes the port. */
#include "dpm3p.h"

int main(int argc, char **argv)
{
    mt_init(&argc, &argv, 120);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size < 2) {
        fprintf(stderr, "selfconacc needs 2 processes\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    char port[MPI_MAX_PORT_NAME] = "";
    MPI_Comm inter;
    if (rank == 0) {
        MT_MPI(MPI_Open_port(MPI_INFO_NULL, port));
        MT_MPI(MPI_Send(port, MPI_MAX_PORT_NAME, MPI_CHAR, 1, 0, MPI_COMM_WORLD));
        MT_MPI(MPI_Comm_accept(port, MPI_INFO_NULL, 0, MPI_COMM_SELF, &inter));
        int v = 0;
        MT_MPI(MPI_Recv(&v, 1, MPI_INT, 0, 1, inter, MPI_STATUS_IGNORE));
        MT_CHECK(v == 4711, "received %d over the accepted communicator", v);
        v = -v;
        MT_MPI(MPI_Send(&v, 1, MPI_INT, 0, 2, inter));
        MT_MPI(MPI_Comm_disconnect(&inter));
        MT_MPI(MPI_Close_port(port));
    } else if (rank == 1) {
        MT_MPI(MPI_Recv(port, MPI_MAX_PORT_NAME, MPI_CHAR, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        MT_MPI(MPI_Comm_connect(port, MPI_INFO_NULL, 0, MPI_COMM_SELF, &inter));
        int remote = 0, v = 4711;
        MPI_Comm_remote_size(inter, &remote);
        MT_CHECK(remote == 1, "remote size %d", remote);
        MT_MPI(MPI_Send(&v, 1, MPI_INT, 0, 1, inter));
        MT_MPI(MPI_Recv(&v, 1, MPI_INT, 0, 2, inter, MPI_STATUS_IGNORE));
        MT_CHECK(v == -4711, "the answer was %d", v);
        MT_MPI(MPI_Comm_disconnect(&inter));
    }
    return mt_finalize();
}
