/* disconnect: parents spawn three children; the children exchange with every parent (each
 * child sends its rank to every parent, the parents answer with rank * 100 + theirs), then all
 * call MPI_Comm_disconnect; the parents go on alone afterwards (a barrier and an allreduce over
 * their world) and the children finalize on their own without waiting for the parents. */
#include "dpm3p.h"

#define NCHILD 3

int main(int argc, char **argv)
{
    mt_init(&argc, &argv, 120);
    MPI_Comm parent, inter;
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_get_parent(&parent);
    if (parent == MPI_COMM_NULL) {
        MT_MPI(MPI_Comm_spawn(argv[0], MPI_ARGV_NULL, NCHILD, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &inter,
                              MPI_ERRCODES_IGNORE));
        for (int c = 0; c < NCHILD; ++c) {
            int v = -1;
            MT_MPI(MPI_Recv(&v, 1, MPI_INT, c, 7, inter, MPI_STATUS_IGNORE));
            MT_CHECK(v == c, "child %d sent %d", c, v);
            int answer = v * 100 + rank;
            MT_MPI(MPI_Send(&answer, 1, MPI_INT, c, 8, inter));
        }
        mt_collect(inter);
        MT_MPI(MPI_Comm_disconnect(&inter));
        MT_CHECK(inter == MPI_COMM_NULL, "the handle is still set after MPI_Comm_disconnect");
        /* The parents alone. */
        MT_MPI(MPI_Barrier(MPI_COMM_WORLD));
        int one = 1, n = 0;
        MT_MPI(MPI_Allreduce(&one, &n, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
        MT_CHECK(n == size, "allreduce after the disconnect gave %d, expected %d", n, size);
        return mt_finalize();
    }
    int psize = 0;
    MPI_Comm_remote_size(parent, &psize);
    for (int p = 0; p < psize; ++p) {
        MT_MPI(MPI_Send(&rank, 1, MPI_INT, p, 7, parent));
        int answer = -1;
        MT_MPI(MPI_Recv(&answer, 1, MPI_INT, p, 8, parent, MPI_STATUS_IGNORE));
        MT_CHECK(answer == rank * 100 + p, "parent %d answered %d, expected %d", p, answer, rank * 100 + p);
    }
    mt_report_to_parent(parent);
    MT_MPI(MPI_Comm_disconnect(&parent));
    MT_CHECK(parent == MPI_COMM_NULL, "the handle is still set after MPI_Comm_disconnect");
    MPI_Comm again;
    MPI_Comm_get_parent(&again);
    MT_CHECK(again == MPI_COMM_NULL, "MPI_Comm_get_parent after the disconnect is not MPI_COMM_NULL");
    MPI_Finalize();
    return mt_errs ? 1 : 0;
}
