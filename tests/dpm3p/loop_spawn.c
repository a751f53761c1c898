/* loop_spawn: many spawns in a row (argv[1] cycles, default 100): spawn one child, merge with
 * it, an allreduce over the merged communicator, free it, disconnect. The child's value and the
 * cycle number are checked in the sum. */
#include "dpm3p.h"

int main(int argc, char **argv)
{
    mt_init(&argc, &argv, 600);
    MPI_Comm parent, inter, merged;
    MPI_Comm_get_parent(&parent);
    if (parent != MPI_COMM_NULL) {
        int cycle = -1, sum = 0;
        MT_MPI(MPI_Intercomm_merge(parent, 1, &merged));
        MT_MPI(MPI_Bcast(&cycle, 1, MPI_INT, 0, merged));
        int mine = cycle * 2;
        MT_MPI(MPI_Allreduce(&mine, &sum, 1, MPI_INT, MPI_SUM, merged));
        MT_MPI(MPI_Comm_free(&merged));
        mt_report_to_parent(parent);
        MT_MPI(MPI_Comm_disconnect(&parent));
        MPI_Finalize();
        return mt_errs ? 1 : 0;
    }
    const int cycles = argc > 1 ? atoi(argv[1]) : 100;
    int psize;
    MPI_Comm_size(MPI_COMM_WORLD, &psize);
    for (int c = 0; c < cycles; ++c) {
        MT_MPI(MPI_Comm_spawn(argv[0], MPI_ARGV_NULL, 1, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &inter,
                              MPI_ERRCODES_IGNORE));
        MT_MPI(MPI_Intercomm_merge(inter, 0, &merged));
        int cycle = c, sum = 0, mine = 1;
        MT_MPI(MPI_Bcast(&cycle, 1, MPI_INT, 0, merged));
        MT_MPI(MPI_Allreduce(&mine, &sum, 1, MPI_INT, MPI_SUM, merged));
        MT_CHECK(sum == psize + 2 * c, "cycle %d: the merged sum is %d, expected %d", c, sum, psize + 2 * c);
        MT_MPI(MPI_Comm_free(&merged));
        mt_collect(inter);
        MT_MPI(MPI_Comm_disconnect(&inter));
        if (mt_errs) break;
    }
    return mt_finalize();
}
