/* Collectives on a communicator merged from two jobs whose ranks see the node differently: one
 * parent, alone in its job, spawns N children that outnumber the CPUs, and everyone merges. Every
 * member must pick the same algorithm for each call (coll_basic decided by each process's own
 * job once, so the parent ran binomial Bcast and the children linear, and the call hung). Bcast
 * and Reduce from every root at 8 B .. 256 KiB, Allreduce, Allgather and Alltoall, every byte
 * checked.
 *
 *   dpm_merge_coll N        (the parent; the children get "child") */
#include <stdlib.h>

#include "test_util.h"

static void check_rooted(MPI_Comm comm, int rank, int size)
{
    for (int root = 0; root < size; ++root) {
        for (int bytes = 8; bytes <= 256 * 1024; bytes *= 8) {
            unsigned char *buf = malloc((size_t)bytes);
            CHECK(buf != NULL, "out of memory");
            memset(buf, rank == root ? root + 1 : 0, (size_t)bytes);
            CHECK_MPI(MPI_Bcast(buf, bytes, MPI_BYTE, root, comm));
            for (int i = 0; i < bytes; ++i)
                CHECK(buf[i] == root + 1, "Bcast of %d bytes from root %d: byte %d is %d, expected %d",
                      bytes, root, i, buf[i], root + 1);
            free(buf);
            long mine[4] = {rank, rank * 2, 1, root}, sum[4] = {0};
            CHECK_MPI(MPI_Reduce(mine, sum, 4, MPI_LONG, MPI_SUM, root, comm));
            if (rank == root) {
                const long all = (long)size * (size - 1) / 2;
                CHECK(sum[0] == all && sum[1] == 2 * all && sum[2] == size && sum[3] == (long)root * size,
                      "Reduce at root %d: {%ld %ld %ld %ld}", root, sum[0], sum[1], sum[2], sum[3]);
            }
        }
    }
}

static void check_all(MPI_Comm comm, int rank, int size)
{
    enum { kBlock = 4096 };
    long v = rank + 1, total = 0;
    CHECK_MPI(MPI_Allreduce(&v, &total, 1, MPI_LONG, MPI_SUM, comm));
    CHECK_EQ(total, (long)size * (size + 1) / 2);
    unsigned char *mine = malloc(kBlock * (size_t)size), *got = malloc(kBlock * (size_t)size);
    CHECK(mine && got, "out of memory");
    memset(mine, rank, kBlock);
    CHECK_MPI(MPI_Allgather(mine, kBlock, MPI_BYTE, got, kBlock, MPI_BYTE, comm));
    for (int p = 0; p < size; ++p)
        CHECK(got[p * kBlock] == p && got[p * kBlock + kBlock - 1] == p, "Allgather: block %d is wrong", p);
    for (int p = 0; p < size; ++p) memset(mine + p * kBlock, rank * 16 + p, kBlock);
    CHECK_MPI(MPI_Alltoall(mine, kBlock, MPI_BYTE, got, kBlock, MPI_BYTE, comm));
    for (int p = 0; p < size; ++p)
        CHECK(got[p * kBlock] == (unsigned char)(p * 16 + rank), "Alltoall: block from %d is wrong", p);
    free(mine);
    free(got);
}

int main(int argc, char **argv)
{
    static char self[4096];
    const char *path = realpath(argv[0], self) ? self : argv[0];
    tu_init(&argc, &argv);
    MPI_Comm parent, inter, merged;
    CHECK_MPI(MPI_Comm_get_parent(&parent));
    if (parent == MPI_COMM_NULL) {
        CHECK(argc == 2 && atoi(argv[1]) > 0, "usage: dpm_merge_coll N");
        char *child_argv[] = {"child", NULL};
        CHECK_MPI(MPI_Comm_spawn(path, child_argv, atoi(argv[1]), MPI_INFO_NULL, 0, MPI_COMM_WORLD, &inter,
                                 MPI_ERRCODES_IGNORE));
    } else {
        inter = parent;
    }
    CHECK_MPI(MPI_Intercomm_merge(inter, parent != MPI_COMM_NULL, &merged));
    int rank, size;
    MPI_Comm_rank(merged, &rank);
    MPI_Comm_size(merged, &size);
    check_rooted(merged, rank, size);
    check_all(merged, rank, size);
    CHECK_MPI(MPI_Comm_free(&merged));
    CHECK_MPI(MPI_Comm_disconnect(&inter));
    if (parent != MPI_COMM_NULL) {
        MPI_Finalize();
        return 0;
    }
    return tu_finish("collectives from every root on 1 + %s merged processes", argv[1]);
}
