/* Multiple-completion calls on receives whose messages rank 0 releases one by one: rank 1 sends
 * a message only when rank 0 asks for it, so rank 0 knows exactly which requests can be complete.
 *   Testany/Testsome/Testall with nothing complete: flag false / outcount 0 / index MPI_UNDEFINED,
 *     requests untouched.
 *   Waitany/Testany: the index of the released message, status, the request set to NULL.
 *   Waitsome/Testsome: exactly the released requests, each once, statuses in output order.
 *   Testall: false until the last one completes; then every request NULL, statuses of requests
 *     that were already NULL are empty.
 *   Only MPI_REQUEST_NULL (or count 0): Wait/Test/Waitany/Testany/Waitsome/Testsome/Waitall/
 *     Testall return at once (index/outcount MPI_UNDEFINED, empty statuses).
 *   MPI_STATUS_IGNORE and MPI_STATUSES_IGNORE in all of them; send and receive requests mixed. */
#include "test_util.h"

enum { K = 5, TAG_CMD = 900, OP_END = 0, OP_SEND = 1, OP_RECV = 2 };

static size_t size_of(int tag) { return tag == 3 ? (size_t)200000 : (size_t)100 + (size_t)tag; }

struct batch {
    MPI_Request req[K];
    unsigned char *buf[K];
    long round;
};

static void command(int op, int tag, long round)
{
    int cmd[3] = {op, tag, (int)round};
    MPI_Send(cmd, 3, MPI_INT, 1, TAG_CMD, MPI_COMM_WORLD);
}

/* Rank 1: sends or receives exactly what rank 0 asks for. */
static void servant(void)
{
    unsigned char *buf = tu_malloc(size_of(3));
    for (;;) {
        int cmd[3];
        MPI_Recv(cmd, 3, MPI_INT, 0, TAG_CMD, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        if (cmd[0] == OP_END)
            break;
        size_t size = size_of(cmd[1]);
        if (cmd[0] == OP_SEND) {
            tu_fill(buf, size, tu_seed(1, 0, size, cmd[1] + 10L * cmd[2]));
            MPI_Send(buf, (int)size, MPI_BYTE, 0, cmd[1], MPI_COMM_WORLD);
        } else {
            MPI_Status st;
            MPI_Recv(buf, (int)size, MPI_BYTE, 0, cmd[1], MPI_COMM_WORLD, &st);
            CHECK_STATUS(&st, 0, cmd[1], size);
            VERIFY(buf, size, tu_seed(0, 1, size, cmd[1] + 10L * cmd[2]), "rank 0's send");
        }
    }
    free(buf);
}

static void post(struct batch *b, long round)
{
    b->round = round;
    for (int t = 0; t < K; ++t) {
        b->buf[t] = tu_malloc(size_of(t));
        memset(b->buf[t], 0xee, size_of(t));
        MPI_Irecv(b->buf[t], (int)size_of(t), MPI_BYTE, 1, t, MPI_COMM_WORLD, &b->req[t]);
    }
}

static void release(struct batch *b, int tag) { command(OP_SEND, tag, b->round); }

static void check_done(struct batch *b, int t, const MPI_Status *st)
{
    CHECK(b->req[t] == MPI_REQUEST_NULL, "completed request %d was not set to MPI_REQUEST_NULL",
          t);
    if (st)
        CHECK_STATUS(st, 1, t, size_of(t));
    VERIFY(b->buf[t], size_of(t), tu_seed(1, 0, size_of(t), t + 10 * b->round),
           "received data");
    free(b->buf[t]);
    b->buf[t] = NULL;
}

static void nothing_complete_yet(struct batch *b)
{
    MPI_Request before[K];
    memcpy(before, b->req, sizeof before);
    for (int i = 0; i < 20; ++i) {
        int index = -5, flag = 1, outcount = -5, indices[K];
        MPI_Status st, sts[K];
        MPI_Testany(K, b->req, &index, &flag, &st);
        CHECK(!flag && index == MPI_UNDEFINED,
              "Testany with nothing complete: flag %d, index %d (expected 0, MPI_UNDEFINED)", flag,
              index);
        MPI_Testsome(K, b->req, &outcount, indices, sts);
        CHECK_EQ(outcount, 0);
        flag = 1;
        MPI_Testall(K, b->req, &flag, sts);
        CHECK(!flag, "Testall says complete while no message was sent");
    }
    CHECK(memcmp(before, b->req, sizeof before) == 0,
          "a Test call changed a request that had not completed");
}

static void any_and_some(struct batch *b)
{
    int index = -5;
    MPI_Status st;
    release(b, 2);
    MPI_Waitany(K, b->req, &index, &st);
    CHECK_EQ(index, 2);
    check_done(b, 2, &st);

    release(b, 4);
    int flag = 0;
    double end = tu_deadline();
    do {
        MPI_Testany(K, b->req, &index, &flag, &st);
        CHECK(MPI_Wtime() < end, "Testany: message 4 not there after %.0f s", TU_HANG_SECONDS);
    } while (!flag);
    CHECK_EQ(index, 4);
    check_done(b, 4, &st);

    release(b, 0);
    release(b, 3);
    int got = 0;
    while (got < 2) {
        int outcount = -5, indices[K];
        MPI_Status sts[K];
        MPI_Waitsome(K, b->req, &outcount, indices, sts);
        CHECK(outcount >= 1 && got + outcount <= 2, "Waitsome: outcount %d with %d of 2 collected",
              outcount, got);
        for (int i = 0; i < outcount; ++i) {
            CHECK(indices[i] == 0 || indices[i] == 3, "Waitsome: index %d was not released",
                  indices[i]);
            check_done(b, indices[i], &sts[i]);
        }
        got += outcount;
    }
}

static void testall_waits_for_the_last(struct batch *b)
{
    int flag = 1;
    MPI_Status sts[K];
    MPI_Testall(K, b->req, &flag, sts);
    CHECK(!flag, "Testall says complete while request 1 has no message");
    CHECK(b->req[1] != MPI_REQUEST_NULL, "Testall freed request 1 though it returned false");
    release(b, 1);
    double end = tu_deadline();
    for (int i = 0; i < K; ++i)
        tu_poison_status(&sts[i]);
    do {
        MPI_Testall(K, b->req, &flag, sts);
        CHECK(MPI_Wtime() < end, "Testall: message 1 not there after %.0f s", TU_HANG_SECONDS);
    } while (!flag);
    check_done(b, 1, &sts[1]);
    for (int t = 0; t < K; ++t)
        if (t != 1)
            CHECK_EMPTY_STATUS(&sts[t], "Testall: status of an already-null request");
}

static void only_null_requests(void)
{
    MPI_Request req[K];
    MPI_Status st, sts[K];
    int index = -5, flag = 0, outcount = -5, indices[K];
    for (int t = 0; t < K; ++t)
        req[t] = MPI_REQUEST_NULL;

    tu_poison_status(&st);
    MPI_Wait(&req[0], &st);
    CHECK_EMPTY_STATUS(&st, "Wait(MPI_REQUEST_NULL)");
    tu_poison_status(&st);
    MPI_Test(&req[0], &flag, &st);
    CHECK(flag, "Test(MPI_REQUEST_NULL) says not complete");
    CHECK_EMPTY_STATUS(&st, "Test(MPI_REQUEST_NULL)");

    tu_poison_status(&st);
    MPI_Waitany(K, req, &index, &st);
    CHECK_EQ(index, MPI_UNDEFINED);
    CHECK_EMPTY_STATUS(&st, "Waitany of null requests");
    tu_poison_status(&st);
    flag = 0;
    MPI_Testany(K, req, &index, &flag, &st);
    CHECK(flag && index == MPI_UNDEFINED,
          "Testany of null requests: flag %d, index %d (expected 1, MPI_UNDEFINED)", flag, index);
    CHECK_EMPTY_STATUS(&st, "Testany of null requests");
    MPI_Waitsome(K, req, &outcount, indices, sts);
    CHECK_EQ(outcount, MPI_UNDEFINED);
    outcount = -5;
    MPI_Testsome(K, req, &outcount, indices, sts);
    CHECK_EQ(outcount, MPI_UNDEFINED);

    for (int t = 0; t < K; ++t)
        tu_poison_status(&sts[t]);
    MPI_Waitall(K, req, sts);
    for (int t = 0; t < K; ++t)
        CHECK_EMPTY_STATUS(&sts[t], "Waitall of null requests");
    flag = 0;
    MPI_Testall(K, req, &flag, sts);
    CHECK(flag, "Testall of null requests says not complete");

    /* count 0 */
    MPI_Waitall(0, req, sts);
    MPI_Waitany(0, req, &index, &st);
    CHECK_EQ(index, MPI_UNDEFINED);
    flag = 0;
    MPI_Testall(0, req, &flag, sts);
    CHECK(flag, "Testall of no requests says not complete");
}

/* The same calls with MPI_STATUS_IGNORE / MPI_STATUSES_IGNORE, sends and receives mixed. */
static void ignoring_statuses(struct batch *b)
{
    int index, flag, outcount, indices[K + 1];
    unsigned char *out = tu_malloc(size_of(3));
    MPI_Request all[K + 1];
    tu_fill(out, size_of(3), tu_seed(0, 1, size_of(3), 3 + 10 * b->round));
    command(OP_RECV, 3, b->round);
    MPI_Isend(out, (int)size_of(3), MPI_BYTE, 1, 3, MPI_COMM_WORLD, &all[K]);

    release(b, 0);
    MPI_Waitany(K, b->req, &index, MPI_STATUS_IGNORE);
    CHECK_EQ(index, 0);
    check_done(b, 0, NULL);
    release(b, 1);
    flag = 0;
    double end = tu_deadline();
    while (!flag) {
        MPI_Testany(K, b->req, &index, &flag, MPI_STATUS_IGNORE);
        CHECK(MPI_Wtime() < end, "Testany: message 1 not there after %.0f s", TU_HANG_SECONDS);
    }
    CHECK_EQ(index, 1);
    check_done(b, 1, NULL);
    release(b, 2);
    MPI_Waitsome(K, b->req, &outcount, indices, MPI_STATUSES_IGNORE);
    CHECK(outcount == 1 && indices[0] == 2, "Waitsome: outcount %d, first index %d", outcount,
          indices[0]);
    check_done(b, 2, NULL);
    release(b, 3);
    outcount = 0;
    end = tu_deadline();
    while (outcount == 0) {
        MPI_Testsome(K, b->req, &outcount, indices, MPI_STATUSES_IGNORE);
        CHECK(MPI_Wtime() < end, "Testsome: message 3 not there after %.0f s", TU_HANG_SECONDS);
    }
    CHECK(outcount == 1 && indices[0] == 3, "Testsome: outcount %d, first index %d", outcount,
          indices[0]);
    check_done(b, 3, NULL);

    /* the send to rank 1 and the last receive, together */
    release(b, 4);
    memcpy(all, b->req, sizeof b->req);
    flag = 0;
    end = tu_deadline();
    while (!flag) {
        MPI_Testall(K + 1, all, &flag, MPI_STATUSES_IGNORE);
        CHECK(MPI_Wtime() < end, "Testall: not complete after %.0f s", TU_HANG_SECONDS);
    }
    memcpy(b->req, all, sizeof b->req);
    check_done(b, 4, NULL);
    CHECK(all[K] == MPI_REQUEST_NULL, "the completed send request is not MPI_REQUEST_NULL");
    free(out);
}

int main(int argc, char **argv)
{
    tu_init(&argc, &argv);
    tu_require_ranks(2, 0);
    if (tu_rank == 0) {
        struct batch b;
        post(&b, 0);
        nothing_complete_yet(&b);
        any_and_some(&b);
        testall_waits_for_the_last(&b);
        only_null_requests();
        post(&b, 1);
        ignoring_statuses(&b);
        command(OP_END, 0, 0);
    } else if (tu_rank == 1) {
        servant();
    }
    return tu_finish("Waitany/Waitsome/Testany/Testall/Testsome with pending, completed and null "
                     "requests, count 0, STATUS(ES)_IGNORE, sends and receives mixed");
}
