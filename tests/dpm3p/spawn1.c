/* spawn1: the parents spawn two copies of this program with MPI_Comm_spawn; each parent rank's
 * view of the inter-communicator (remote size, its own rank and size) is checked; the parent
 * root sends every child its rank and gets it back; the children check their world (size 2,
 * MPI_Comm_get_parent set, the parents as the remote group), then everyone disconnects. */
#include "dpm3p.h"

#define NCHILD 2

int main(int argc, char **argv)
{
    mt_init(&argc, &argv, 120);
    MPI_Comm parent, inter;
    int rank, size, rsize;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_get_parent(&parent);
    if (parent == MPI_COMM_NULL) {
        int codes[NCHILD] = {-1, -1};
        MT_MPI(MPI_Comm_spawn(argv[0], MPI_ARGV_NULL, NCHILD, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &inter, codes));
        for (int i = 0; i < NCHILD; ++i) MT_CHECK(codes[i] == MPI_SUCCESS, "errcodes[%d] = %d", i, codes[i]);
        MPI_Comm_remote_size(inter, &rsize);
        MT_CHECK(rsize == NCHILD, "remote size %d, expected %d", rsize, NCHILD);
        int irank, isize;
        MPI_Comm_rank(inter, &irank);
        MPI_Comm_size(inter, &isize);
        MT_CHECK(irank == rank && isize == size, "local rank/size %d/%d in the inter-communicator, %d/%d in world",
                 irank, isize, rank, size);
        if (rank == 0) {
            for (int i = 0; i < NCHILD; ++i) MT_MPI(MPI_Send(&i, 1, MPI_INT, i, 0, inter));
            for (int i = 0; i < NCHILD; ++i) {
                int back = -1;
                MPI_Status st;
                MT_MPI(MPI_Recv(&back, 1, MPI_INT, i, 1, inter, &st));
                MT_CHECK(back == i && st.MPI_SOURCE == i, "child %d answered %d (source %d)", i, back, st.MPI_SOURCE);
            }
        }
        mt_collect(inter);
        MT_MPI(MPI_Comm_disconnect(&inter));
        MT_CHECK(inter == MPI_COMM_NULL, "the handle is still set after MPI_Comm_disconnect");
        return mt_finalize();
    }
    MT_CHECK(size == NCHILD, "the children's world has %d processes, expected %d", size, NCHILD);
    int flag = 0;
    MPI_Comm_test_inter(parent, &flag);
    MT_CHECK(flag, "the parent communicator is not an inter-communicator");
    int got = -1;
    MT_MPI(MPI_Recv(&got, 1, MPI_INT, 0, 0, parent, MPI_STATUS_IGNORE));
    MT_CHECK(got == rank, "got %d from the parent root, expected my rank %d", got, rank);
    MT_MPI(MPI_Send(&got, 1, MPI_INT, 0, 1, parent));
    mt_report_to_parent(parent);
    MT_MPI(MPI_Comm_disconnect(&parent));
    MPI_Finalize();
    return mt_errs ? 1 : 0;
}
