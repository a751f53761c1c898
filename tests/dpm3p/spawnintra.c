/* spawnintra: parents and spawned children merge their inter-communicator into one
 * intra-communicator, both orders (parents low, then parents high): sizes, the rank order the
 * high flags imply, and an allreduce and a bcast over the result. */
#include "dpm3p.h"

#define NCHILD 2

static void merged_checks(MPI_Comm inter, int high, int is_parent)
{
    int lrank, lsize, rsize, mrank, msize;
    MPI_Comm merged;
    MPI_Comm_rank(inter, &lrank);
    MPI_Comm_size(inter, &lsize);
    MPI_Comm_remote_size(inter, &rsize);
    MT_MPI(MPI_Intercomm_merge(inter, high, &merged));
    MPI_Comm_rank(merged, &mrank);
    MPI_Comm_size(merged, &msize);
    MT_CHECK(msize == lsize + rsize, "merged size %d, expected %d", msize, lsize + rsize);
    MT_CHECK(mrank == (high ? rsize + lrank : lrank), "merged rank %d (high %d, local rank %d)", mrank, high, lrank);
    /* Each process contributes 1 (parents) or 1000 (children): the sum says who is in. */
    int mine = is_parent ? 1 : 1000, sum = 0;
    MT_MPI(MPI_Allreduce(&mine, &sum, 1, MPI_INT, MPI_SUM, merged));
    const int expect = is_parent ? lsize + 1000 * rsize : rsize + 1000 * lsize;
    MT_CHECK(sum == expect, "allreduce over the merged communicator: %d, expected %d", sum, expect);
    int token = mrank == msize - 1 ? 31415 : 0;
    MT_MPI(MPI_Bcast(&token, 1, MPI_INT, msize - 1, merged));
    MT_CHECK(token == 31415, "bcast from the last rank gave %d", token);
    MT_MPI(MPI_Comm_free(&merged));
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv, 120);
    MPI_Comm parent, inter;
    MPI_Comm_get_parent(&parent);
    const int is_parent = parent == MPI_COMM_NULL;
    if (is_parent)
        MT_MPI(MPI_Comm_spawn(argv[0], MPI_ARGV_NULL, NCHILD, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &inter,
                              MPI_ERRCODES_IGNORE));
    else
        inter = parent;
    merged_checks(inter, is_parent ? 0 : 1, is_parent);
    merged_checks(inter, is_parent ? 1 : 0, is_parent);
    if (is_parent) {
        mt_collect(inter);
        MT_MPI(MPI_Comm_disconnect(&inter));
        return mt_finalize();
    }
    mt_report_to_parent(inter);
    MT_MPI(MPI_Comm_disconnect(&inter));
    MPI_Finalize();
    return mt_errs ? 1 : 0;
}
