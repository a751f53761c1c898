/* Derived datatypes held by requests and used by the other send modes, ranks in a ring (2-4):
 *  - Isend/Irecv with both types freed (MPI_Type_free) right after the calls, before the
 *    requests complete (MPI-2.2 4.1.9: the communication completes normally), eager and
 *    >= 1 MiB;
 *  - persistent Send_init/Recv_init with derived types, the types freed right after the first
 *    Start, then started again 3 more times with fresh data each time;
 *  - Sendrecv with different derived types of one signature on the two sides (vector out,
 *    indexed in), and Sendrecv_replace into a derived type (holes keep their bytes);
 *  - Ssend, Issend, and Bsend of a derived type (buffer sized with Pack_size, data changed
 *    right after the Bsend returns).
 * Every receive is checked byte by byte against the model of its type map (datatype_model.h),
 * holes and guards included. */
#include "datatype_model.h"

static int next_rank(void) { return (tu_rank + 1) % tu_size; }
static int prev_rank(void) { return (tu_rank + tu_size - 1) % tu_size; }
static long checks;

/* A vector of doubles with holes (count 3, block 2, stride -4: negative stride on purpose) and
 * its model. */
static void make_vector(MPI_Datatype *t, dm_model *m)
{
    dm_model d = dm_basic(sizeof(double));
    CHECK_MPI(MPI_Type_vector(3, 2, -4, MPI_DOUBLE, t));
    CHECK_MPI(MPI_Type_commit(t));
    *m = dm_vector(3, 2, -4, &d);
    dm_free(&d);
}

/* An indexed type of 6 doubles (the vector's signature), other places. */
static void make_indexed(MPI_Datatype *t, dm_model *m)
{
    int bl[3] = {1, 4, 1}, disp[3] = {9, 0, -2};
    dm_model d = dm_basic(sizeof(double));
    CHECK_MPI(MPI_Type_indexed(3, bl, disp, MPI_DOUBLE, t));
    CHECK_MPI(MPI_Type_commit(t));
    *m = dm_indexed(3, bl, disp, &d);
    dm_free(&d);
}

/* The buffer a receive of `count` items of rm from the previous rank should hold, when that
 * rank sent `count` items of sm from a buffer filled with seed (prev, me, tag, iter). */
static void expect_from(const dm_model *sm, const dm_model *rm, int count, int tag, long iter,
                        const dm_buf *got, const char *what)
{
    dm_buf theirs = dm_buf_alloc(sm, count), want = dm_buf_alloc(rm, count);
    dm_buf_fill(&theirs, tu_seed(prev_rank(), tu_rank, (size_t)tag, iter));
    size_t bytes = (size_t)sm->size * (size_t)count;
    unsigned char *stream = (unsigned char *)tu_malloc(bytes);
    dm_gather(sm, count, &theirs, stream, bytes);
    dm_scatter(rm, count, &want, stream, bytes);
    DM_COMPARE(rm, count, got, &want, what);
    ++checks;
    free(stream);
    dm_buf_free(&theirs);
    dm_buf_free(&want);
}

static void check_status(const MPI_Status *st, MPI_Datatype t, int count, int tag)
{
    int n = -1;
    CHECK_EQ(st->MPI_SOURCE, prev_rank());
    CHECK_EQ(st->MPI_TAG, tag);
    CHECK_MPI(MPI_Get_count(st, t, &n));
    CHECK_EQ(n, count);
}

/* Isend/Irecv whose types are freed before the requests complete. */
static void freed_while_pending(int count, int tag)
{
    MPI_Datatype st, rt;
    dm_model sm, rm;
    make_vector(&st, &sm);
    make_indexed(&rt, &rm);
    dm_buf sbuf = dm_buf_alloc(&sm, count), rbuf = dm_buf_alloc(&rm, count);
    dm_buf_fill(&sbuf, tu_seed(tu_rank, next_rank(), (size_t)tag, 0));
    MPI_Request req[2];
    MPI_Status sts[2];
    CHECK_MPI(MPI_Irecv(rbuf.base, count, rt, prev_rank(), tag, MPI_COMM_WORLD, &req[0]));
    CHECK_MPI(MPI_Type_free(&rt));
    CHECK_MPI(MPI_Isend(sbuf.base, count, st, next_rank(), tag, MPI_COMM_WORLD, &req[1]));
    CHECK_MPI(MPI_Type_free(&st));
    CHECK(st == MPI_DATATYPE_NULL && rt == MPI_DATATYPE_NULL,
          "MPI_Type_free did not set the handles to MPI_DATATYPE_NULL");
    /* Other types come and go meanwhile: their memory must not be the pending ones'. */
    for (int i = 0; i < 8; ++i) {
        MPI_Datatype junk;
        CHECK_MPI(MPI_Type_contiguous(i + 1, MPI_CHAR, &junk));
        CHECK_MPI(MPI_Type_commit(&junk));
        CHECK_MPI(MPI_Type_free(&junk));
    }
    CHECK_MPI(MPI_Waitall(2, req, sts));
    CHECK_EQ(sts[0].MPI_SOURCE, prev_rank());
    CHECK_EQ(sts[0].MPI_TAG, tag);
    char what[128];
    snprintf(what, sizeof what, "Isend/Irecv of %d items, both types freed before Waitall", count);
    expect_from(&sm, &rm, count, tag, 0, &rbuf, what);
    dm_buf_free(&sbuf);
    dm_buf_free(&rbuf);
    dm_free(&sm);
    dm_free(&rm);
}

/* Persistent requests whose types are freed after the first Start. */
static void persistent(int count, int tag)
{
    MPI_Datatype st, rt;
    dm_model sm, rm;
    make_vector(&st, &sm);
    make_indexed(&rt, &rm);
    dm_buf sbuf = dm_buf_alloc(&sm, count), rbuf = dm_buf_alloc(&rm, count);
    MPI_Request req[2];
    CHECK_MPI(MPI_Recv_init(rbuf.base, count, rt, prev_rank(), tag, MPI_COMM_WORLD, &req[0]));
    CHECK_MPI(MPI_Send_init(sbuf.base, count, st, next_rank(), tag, MPI_COMM_WORLD, &req[1]));
    for (long iter = 0; iter < 4; ++iter) {
        MPI_Status sts[2];
        dm_buf_fill(&sbuf, tu_seed(tu_rank, next_rank(), (size_t)tag, iter));
        memset(rbuf.mem, TU_GUARD_BYTE, rbuf.total);
        CHECK_MPI(MPI_Startall(2, req));
        if (iter == 0) {
            CHECK_MPI(MPI_Type_free(&st));
            CHECK_MPI(MPI_Type_free(&rt));
        }
        CHECK_MPI(MPI_Waitall(2, req, sts));
        CHECK(req[0] != MPI_REQUEST_NULL && req[1] != MPI_REQUEST_NULL,
              "a completed persistent request was deallocated");
        CHECK_EQ(sts[0].MPI_SOURCE, prev_rank());
        char what[160];
        snprintf(what, sizeof what,
                 "persistent Send_init/Recv_init of %d items, start %ld (types freed after the "
                 "first Start)",
                 count, iter + 1);
        expect_from(&sm, &rm, count, tag, iter, &rbuf, what);
        /* the sender must not start writing the next round before the receiver has checked */
        CHECK_MPI(MPI_Sendrecv(NULL, 0, MPI_BYTE, prev_rank(), tag + 1, NULL, 0, MPI_BYTE,
                               next_rank(), tag + 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    }
    CHECK_MPI(MPI_Request_free(&req[0]));
    CHECK_MPI(MPI_Request_free(&req[1]));
    dm_buf_free(&sbuf);
    dm_buf_free(&rbuf);
    dm_free(&sm);
    dm_free(&rm);
}

/* Sendrecv vector -> indexed, then Sendrecv_replace of the indexed type in place. */
static void sendrecv(int count, int tag)
{
    MPI_Datatype vt, it;
    dm_model vm, im;
    make_vector(&vt, &vm);
    make_indexed(&it, &im);
    dm_buf sbuf = dm_buf_alloc(&vm, count), rbuf = dm_buf_alloc(&im, count);
    dm_buf_fill(&sbuf, tu_seed(tu_rank, next_rank(), (size_t)tag, 0));
    MPI_Status st;
    CHECK_MPI(MPI_Sendrecv(sbuf.base, count, vt, next_rank(), tag, rbuf.base, count, it,
                           prev_rank(), tag, MPI_COMM_WORLD, &st));
    check_status(&st, it, count, tag);
    char what[128];
    snprintf(what, sizeof what, "Sendrecv of %d items vector -> indexed", count);
    expect_from(&vm, &im, count, tag, 0, &rbuf, what);

    /* In place: our indexed buffer (its holes a pattern too) goes to the next rank and the
     * previous rank's replaces it; the holes must keep our bytes. */
    dm_buf mine = dm_buf_alloc(&im, count);
    dm_buf_fill(&mine, tu_seed(tu_rank, next_rank(), (size_t)tag + 1, 0));
    dm_buf hole_source = dm_buf_alloc(&im, count);
    memcpy(hole_source.mem, mine.mem, mine.total);
    CHECK_MPI(MPI_Sendrecv_replace(mine.base, count, it, next_rank(), tag + 1, prev_rank(),
                                   tag + 1, MPI_COMM_WORLD, &st));
    check_status(&st, it, count, tag + 1);
    /* expected: our buffer with the previous rank's type-map bytes in place */
    dm_buf theirs = dm_buf_alloc(&im, count);
    dm_buf_fill(&theirs, tu_seed(prev_rank(), tu_rank, (size_t)tag + 1, 0));
    size_t bytes = (size_t)im.size * (size_t)count;
    unsigned char *stream = (unsigned char *)tu_malloc(bytes);
    dm_gather(&im, count, &theirs, stream, bytes);
    dm_scatter(&im, count, &hole_source, stream, bytes);
    snprintf(what, sizeof what, "Sendrecv_replace of %d indexed items", count);
    DM_COMPARE(&im, count, &mine, &hole_source, what);
    ++checks;
    free(stream);
    dm_buf_free(&theirs);
    dm_buf_free(&mine);
    dm_buf_free(&hole_source);
    dm_buf_free(&sbuf);
    dm_buf_free(&rbuf);
    CHECK_MPI(MPI_Type_free(&vt));
    CHECK_MPI(MPI_Type_free(&it));
    dm_free(&vm);
    dm_free(&im);
}

/* mode 0: Ssend, 1: Issend + Wait, 2: Bsend (attached buffer from Pack_size). */
static void other_modes(int count, int tag, int mode)
{
    static const char *const names[3] = {"Ssend", "Issend", "Bsend"};
    MPI_Datatype vt, it;
    dm_model vm, im;
    make_vector(&vt, &vm);
    make_indexed(&it, &im);
    dm_buf sbuf = dm_buf_alloc(&vm, count), rbuf = dm_buf_alloc(&im, count);
    dm_buf_fill(&sbuf, tu_seed(tu_rank, next_rank(), (size_t)tag, 0));
    void *attached = NULL;
    if (mode == 2) {
        int need = 0;
        CHECK_MPI(MPI_Pack_size(count, vt, MPI_COMM_WORLD, &need));
        CHECK(need >= vm.size * count, "MPI_Pack_size(%d, vector) = %d, below the %ld bytes of data",
              count, need, (long)(vm.size * count));
        need += MPI_BSEND_OVERHEAD;
        attached = tu_malloc((size_t)need);
        CHECK_MPI(MPI_Buffer_attach(attached, need));
    }
    MPI_Request rreq, sreq;
    MPI_Status st;
    CHECK_MPI(MPI_Irecv(rbuf.base, count, it, prev_rank(), tag, MPI_COMM_WORLD, &rreq));
    switch (mode) {
    case 0:
        CHECK_MPI(MPI_Ssend(sbuf.base, count, vt, next_rank(), tag, MPI_COMM_WORLD));
        break;
    case 1:
        CHECK_MPI(MPI_Issend(sbuf.base, count, vt, next_rank(), tag, MPI_COMM_WORLD, &sreq));
        CHECK_MPI(MPI_Wait(&sreq, MPI_STATUS_IGNORE));
        break;
    default:
        CHECK_MPI(MPI_Bsend(sbuf.base, count, vt, next_rank(), tag, MPI_COMM_WORLD));
        /* the data was copied: overwriting it now must not change what arrives */
        memset(sbuf.mem, 0, sbuf.total);
    }
    CHECK_MPI(MPI_Wait(&rreq, &st));
    check_status(&st, it, count, tag);
    char what[128];
    snprintf(what, sizeof what, "%s of %d vector items -> indexed", names[mode], count);
    expect_from(&vm, &im, count, tag, 0, &rbuf, what);
    if (mode == 2) {
        void *addr = NULL;
        int size = 0;
        CHECK_MPI(MPI_Buffer_detach(&addr, &size));
        CHECK(addr == attached, "Buffer_detach returned another address");
        free(attached);
    }
    dm_buf_free(&sbuf);
    dm_buf_free(&rbuf);
    CHECK_MPI(MPI_Type_free(&vt));
    CHECK_MPI(MPI_Type_free(&it));
    dm_free(&vm);
    dm_free(&im);
}

int main(int argc, char **argv)
{
    tu_init(&argc, &argv);
    tu_require_ranks(2, 4);
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    /* 6 doubles per item: 1, 100 and 25000 items (48 B, 4.8 KB, 1.2 MB) */
    static const int counts[] = {1, 100, 25000};
    for (int k = 0; k < 3; ++k) {
        int c = counts[k], tag = 100 * k;
        freed_while_pending(c, tag);
        persistent(c, tag + 10);
        sendrecv(c, tag + 20);
        for (int mode = 0; mode < 3; ++mode)
            other_modes(c, tag + 30 + mode, mode);
    }
    return tu_finish("Isend/Irecv and persistent requests with their types freed while in use, "
                     "Sendrecv and Sendrecv_replace with derived types, Ssend/Issend/Bsend of "
                     "derived types; 48 B, 4.8 KB and 1.2 MB: %ld receives verified byte by byte",
                     checks);
}
