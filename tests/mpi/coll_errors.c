/* Misused collectives under MPI_ERRORS_RETURN: every rank makes the same mistake (so no rank is
 * left waiting in a collective its peers rejected) and gets the error class MPI-2.2 names for
 * it; rank 0 prints each message. Invalid roots (the size, -1, MPI_ROOT and MPI_PROC_NULL on an
 * intra-communicator, a remote rank out of range on an inter-communicator), operations a type
 * does not allow (bitwise on reals, logical on reals, MINLOC on a non-pair, MPI_OP_NULL), count
 * -1 (and a negative entry of Reduce_scatter's recvcounts), MPI_DATATYPE_NULL and an uncommitted
 * type, MPI_COMM_NULL, Scan/Exscan on an inter-communicator. Afterwards the collectives still
 * work. MPI cannot detect a root that differs between ranks without communicating, so that
 * misuse is not tested here. */
#include "test_util.h"

static long checks;

/* EXPECT(call, class): the call fails with that class; rank 0 prints the message. */
#define EXPECT(call, want)                                                                        \
    do {                                                                                          \
        int rc_ = (call);                                                                         \
        CHECK_CLASS(rc_, want);                                                                   \
        if (tu_rank == 0) {                                                                       \
            char text_[MPI_MAX_ERROR_STRING];                                                     \
            printf("  %-68.68s -> %s: %s\n", #call, #want, tu_error_text(rc_, text_));           \
            fflush(stdout);                                                                       \
        }                                                                                         \
        ++checks;                                                                                 \
    } while (0)

/* An Allreduce of ones sums over the (remote, for an inter-communicator) group. */
/* EXPECT_REF_ALSO(call, class, other): Open MPI 4.1.4 and MPICH 4.0.2 check the operation
 * against the type before the type itself, so an invalid type in a reduction gives them
 * `other`; Plexus must say what is wrong. */
#if (defined(OPEN_MPI) && OPEN_MPI) || defined(MPICH_VERSION)
#define EXPECT_REF_ALSO(call, want, other)                                                       \
    do {                                                                                          \
        int rc2_ = (call);                                                                        \
        if (tu_error_class(rc2_) == (other))                                                      \
            ++checks;                                                                             \
        else                                                                                      \
            EXPECT(rc2_, want);                                                                   \
    } while (0)
#else
#define EXPECT_REF_ALSO(call, want, other) EXPECT(call, want)
#endif

/* EXPECT_NOT_MPICH(call, class): MPICH 4.0.2 does not check this one (it asserts, crashes or
 * checks on some ranks only); the other implementations must return the class. */
#if defined(MPICH_VERSION)
#define EXPECT_NOT_MPICH(call, want) ((void)0)
#else
#define EXPECT_NOT_MPICH(call, want) EXPECT(call, want)
#endif

static void check_still_works(MPI_Comm comm)
{
    int size, one = 1, sum = 0, is_inter = 0;
    CHECK_MPI(MPI_Comm_test_inter(comm, &is_inter));
    CHECK_MPI(is_inter ? MPI_Comm_remote_size(comm, &size) : MPI_Comm_size(comm, &size));
    CHECK_MPI(MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, comm));
    CHECK_EQ(sum, size);
}

int main(int argc, char **argv)
{
    tu_init(&argc, &argv);
    tu_require_ranks(2, 64);
    MPI_Comm w = MPI_COMM_WORLD;
    CHECK_MPI(MPI_Comm_set_errhandler(w, MPI_ERRORS_RETURN));
    int n = tu_size;
    int ibuf[256] = {0}, ibuf2[256] = {0}, counts[64], displs[64];
    double dbuf[8] = {0}, dbuf2[8] = {0};
    float fbuf[8] = {0}, fbuf2[8] = {0};
    (void)fbuf;
    (void)fbuf2;
    for (int i = 0; i < n; ++i) {
        counts[i] = 1;
        displs[i] = i;
    }
    if (tu_rank == 0)
        printf("coll_errors: the messages:\n");

    /* roots */
    EXPECT(MPI_Bcast(ibuf, 1, MPI_INT, n, w), MPI_ERR_ROOT);
    EXPECT(MPI_Bcast(ibuf, 1, MPI_INT, -1, w), MPI_ERR_ROOT);
    EXPECT(MPI_Bcast(ibuf, 1, MPI_INT, MPI_ROOT, w), MPI_ERR_ROOT);
    EXPECT(MPI_Bcast(ibuf, 1, MPI_INT, MPI_PROC_NULL, w), MPI_ERR_ROOT);
    EXPECT(MPI_Reduce(ibuf, ibuf2, 1, MPI_INT, MPI_SUM, n + 3, w), MPI_ERR_ROOT);
    EXPECT(MPI_Gather(ibuf, 1, MPI_INT, ibuf2, 1, MPI_INT, -2, w), MPI_ERR_ROOT);
    EXPECT(MPI_Gatherv(ibuf, 1, MPI_INT, ibuf2, counts, displs, MPI_INT, n, w), MPI_ERR_ROOT);
    EXPECT(MPI_Scatter(ibuf, 1, MPI_INT, ibuf2, 1, MPI_INT, n, w), MPI_ERR_ROOT);
    EXPECT(MPI_Scatterv(ibuf, counts, displs, MPI_INT, ibuf2, 1, MPI_INT, n + 1, w), MPI_ERR_ROOT);

    /* operations the type does not allow */
    EXPECT(MPI_Allreduce(dbuf, dbuf2, 2, MPI_DOUBLE, MPI_BAND, w), MPI_ERR_OP);
#if !defined(MPICH_VERSION) /* MPICH 4.0.2 asserts in its LAND kernel, and checks Reduce's
                             * operation at the root only */
    EXPECT(MPI_Allreduce(fbuf, fbuf2, 2, MPI_FLOAT, MPI_LAND, w), MPI_ERR_OP);
    EXPECT(MPI_Reduce(fbuf, fbuf2, 2, MPI_FLOAT, MPI_LAND, 0, w), MPI_ERR_OP);
#endif
    EXPECT(MPI_Allreduce(ibuf, ibuf2, 2, MPI_INT, MPI_MINLOC, w), MPI_ERR_OP);
    EXPECT(MPI_Allreduce(ibuf, ibuf2, 1, MPI_INT, MPI_OP_NULL, w), MPI_ERR_OP);
    EXPECT(MPI_Scan(dbuf, dbuf2, 1, MPI_DOUBLE, MPI_BXOR, w), MPI_ERR_OP);
    EXPECT(MPI_Exscan(ibuf, ibuf2, 1, MPI_2INT, MPI_SUM, w), MPI_ERR_OP);
    EXPECT(MPI_Reduce_scatter_block(dbuf, dbuf2, 1, MPI_DOUBLE, MPI_BOR, w), MPI_ERR_OP);
#if !defined(MPICH_VERSION) /* MPICH 4.0.2 checks it on some ranks only */
    EXPECT(MPI_Reduce_scatter(dbuf, dbuf2, counts, MPI_DOUBLE, MPI_LXOR, w), MPI_ERR_OP);
#endif

    /* counts */
    EXPECT(MPI_Bcast(ibuf, -1, MPI_INT, 0, w), MPI_ERR_COUNT);
    EXPECT_NOT_MPICH(MPI_Allreduce(ibuf, ibuf2, -1, MPI_INT, MPI_SUM, w), MPI_ERR_COUNT);
    EXPECT_NOT_MPICH(MPI_Reduce(ibuf, ibuf2, -1, MPI_INT, MPI_SUM, 0, w), MPI_ERR_COUNT);
    EXPECT(MPI_Allgather(ibuf, -1, MPI_INT, ibuf2, 1, MPI_INT, w), MPI_ERR_COUNT);
    EXPECT(MPI_Alltoall(ibuf, -1, MPI_INT, ibuf2, -1, MPI_INT, w), MPI_ERR_COUNT);
    EXPECT_NOT_MPICH(MPI_Scan(ibuf, ibuf2, -1, MPI_INT, MPI_SUM, w), MPI_ERR_COUNT);
    EXPECT_NOT_MPICH(MPI_Reduce_scatter_block(ibuf, ibuf2, -1, MPI_INT, MPI_SUM, w), MPI_ERR_COUNT);
    counts[n - 1] = -1;
    EXPECT(MPI_Reduce_scatter(ibuf, ibuf2, counts, MPI_INT, MPI_SUM, w), MPI_ERR_COUNT);
    counts[n - 1] = 1;

    /* types */
    MPI_Datatype uncommitted;
    CHECK_MPI(MPI_Type_contiguous(2, MPI_INT, &uncommitted));
    EXPECT(MPI_Bcast(ibuf, 1, MPI_DATATYPE_NULL, 0, w), MPI_ERR_TYPE);
    EXPECT(MPI_Bcast(ibuf, 1, uncommitted, 0, w), MPI_ERR_TYPE);
    EXPECT_REF_ALSO(MPI_Allreduce(ibuf, ibuf2, 1, MPI_DATATYPE_NULL, MPI_SUM, w), MPI_ERR_TYPE,
                    MPI_ERR_OP);
    EXPECT(MPI_Allgather(ibuf, 1, MPI_INT, ibuf2, 1, MPI_DATATYPE_NULL, w), MPI_ERR_TYPE);
    EXPECT(MPI_Alltoall(ibuf, 1, MPI_DATATYPE_NULL, ibuf2, 1, MPI_INT, w), MPI_ERR_TYPE);
    CHECK_MPI(MPI_Type_free(&uncommitted));

    /* communicators */
    EXPECT(MPI_Barrier(MPI_COMM_NULL), MPI_ERR_COMM);
    EXPECT(MPI_Bcast(ibuf, 1, MPI_INT, 0, MPI_COMM_NULL), MPI_ERR_COMM);
    EXPECT(MPI_Allreduce(ibuf, ibuf2, 1, MPI_INT, MPI_SUM, MPI_COMM_NULL), MPI_ERR_COMM);
    EXPECT(MPI_Alltoall(ibuf, 1, MPI_INT, ibuf2, 1, MPI_INT, MPI_COMM_NULL), MPI_ERR_COMM);
    check_still_works(w);

    /* an inter-communicator: A = rank 0, B = the others */
    MPI_Comm local, inter;
    int side = tu_rank == 0 ? 0 : 1;
    CHECK_MPI(MPI_Comm_split(w, side, tu_rank, &local));
    CHECK_MPI(MPI_Intercomm_create(local, 0, w, side ? 0 : 1, 5, &inter));
    CHECK_MPI(MPI_Comm_set_errhandler(inter, MPI_ERRORS_RETURN));
    int remote = 0;
    CHECK_MPI(MPI_Comm_remote_size(inter, &remote));
    EXPECT(MPI_Scan(ibuf, ibuf2, 1, MPI_INT, MPI_SUM, inter), MPI_ERR_COMM);
#if !(defined(OPEN_MPI) && OPEN_MPI) /* Open MPI 4.1.4 crashes in Exscan on an inter-communicator */
    EXPECT(MPI_Exscan(ibuf, ibuf2, 1, MPI_INT, MPI_SUM, inter), MPI_ERR_COMM);
#endif
    EXPECT(MPI_Bcast(ibuf, 1, MPI_INT, remote, inter), MPI_ERR_ROOT);
    EXPECT(MPI_Reduce(ibuf, ibuf2, 1, MPI_INT, MPI_SUM, -7, inter), MPI_ERR_ROOT);
    check_still_works(inter);
    CHECK_MPI(MPI_Comm_free(&inter));
    CHECK_MPI(MPI_Comm_free(&local));

    check_still_works(w);
    return tu_finish("%ld misuses returned their error class", checks);
}
