/* concurrent_spawns: every process of the job spawns its own child at the same time, over
 * MPI_COMM_SELF, several rounds (argv[1], default 4): each child gets a number made of its
 * parent's rank and the round and answers it plus one; a child that reached the wrong parent,
 * or an answer crossing to another parent's child, shows. */
#include "dpm3p.h"

int main(int argc, char **argv)
{
    mt_init(&argc, &argv, 180);
    MPI_Comm parent, child;
    MPI_Comm_get_parent(&parent);
    if (parent != MPI_COMM_NULL) {
        int v = -1;
        MT_MPI(MPI_Recv(&v, 1, MPI_INT, 0, 0, parent, MPI_STATUS_IGNORE));
        ++v;
        MT_MPI(MPI_Send(&v, 1, MPI_INT, 0, 1, parent));
        mt_report_to_parent(parent);
        MT_MPI(MPI_Comm_disconnect(&parent));
        MPI_Finalize();
        return mt_errs ? 1 : 0;
    }
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    const int rounds = argc > 1 ? atoi(argv[1]) : 4;
    for (int r = 0; r < rounds; ++r) {
        int code = -1;
        MT_MPI(MPI_Comm_spawn(argv[0], MPI_ARGV_NULL, 1, MPI_INFO_NULL, 0, MPI_COMM_SELF, &child, &code));
        MT_CHECK(code == MPI_SUCCESS, "round %d: errcode %d", r, code);
        int v = rank * 1000 + r, back = -1;
        MT_MPI(MPI_Send(&v, 1, MPI_INT, 0, 0, child));
        MT_MPI(MPI_Recv(&back, 1, MPI_INT, 0, 1, child, MPI_STATUS_IGNORE));
        MT_CHECK(back == v + 1, "round %d: my child answered %d to %d", r, back, v);
        mt_collect(child);
        MT_MPI(MPI_Comm_disconnect(&child));
    }
    return mt_finalize();
}
