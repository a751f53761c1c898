/* Cancel and Request_free between ranks 0 and 1 (other ranks idle):
 *   1. Receives that never match, cancelled: (1, tag), (ANY_SOURCE, tag) and (1, ANY_TAG),
 *      completed by Wait, Test and Waitall: the call succeeds, Test_cancelled says true, and a
 *      message sent afterwards with that envelope goes to the next receive, not into the
 *      cancelled buffer (which stays untouched).
 *   2. A receive cancelled after it matched (rank 1's Ssend returned, and rank 1 said so): the
 *      cancel fails, Wait delivers the message, Test_cancelled says false. Eager and rendezvous.
 *   3. Request_free of an active Isend: the message still arrives intact. Of an active Irecv: it
 *      still takes its message (the next receive with the same envelope gets the one after). */
#include "test_util.h"

enum { TAG_GO = 900, TAG_MATCHED = 901, TAG_ACK = 902 };
#define SMALL 100
#define LARGE ((size_t)1 << 20)

static void go(int to, int tag) { MPI_Send(NULL, 0, MPI_BYTE, to, tag, MPI_COMM_WORLD); }
static void wait_go(int from, int tag)
{
    MPI_Recv(NULL, 0, MPI_BYTE, from, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

static void check_cancelled(const MPI_Status *st, int want, const char *what)
{
    int cancelled = -1;
    MPI_Test_cancelled(st, &cancelled);
    CHECK(cancelled == want, "%s: Test_cancelled says %d, expected %d", what, cancelled, want);
}

/* Part 1, rank 0: nothing has been sent to it yet, so these receives cannot match. */
static void cancel_unmatched(void)
{
    static const int src[3] = {1, MPI_ANY_SOURCE, 1};
    static const int tag[3] = {77, 78, MPI_ANY_TAG};
    static const char *what[3] = {"cancelled Irecv(1, 77), completed by Wait",
                                  "cancelled Irecv(ANY_SOURCE, 78), completed by Test",
                                  "cancelled Irecv(1, ANY_TAG), completed by Waitall"};
    unsigned char cancelled_buf[3][SMALL];
    MPI_Request req[3];
    MPI_Status st[3];
    memset(cancelled_buf, TU_GUARD_BYTE, sizeof cancelled_buf);
    for (int i = 0; i < 3; ++i) {
        MPI_Irecv(cancelled_buf[i], SMALL, MPI_BYTE, src[i], tag[i], MPI_COMM_WORLD, &req[i]);
        MPI_Cancel(&req[i]);
    }
    MPI_Wait(&req[0], &st[0]);
    TU_TEST_UNTIL_DONE(&req[1], &st[1], what[1]);
    MPI_Waitall(1, &req[2], &st[2]);
    for (int i = 0; i < 3; ++i) {
        CHECK(req[i] == MPI_REQUEST_NULL, "%s: request not MPI_REQUEST_NULL after completion",
              what[i]);
        check_cancelled(&st[i], 1, what[i]);
    }

    /* Now rank 1 sends with those envelopes; the cancelled receives must not take anything. */
    go(1, TAG_GO);
    unsigned char buf[SMALL];
    for (int i = 0; i < 2; ++i) {
        MPI_Status s;
        MPI_Recv(buf, SMALL, MPI_BYTE, 1, tag[i], MPI_COMM_WORLD, &s);
        CHECK_STATUS(&s, 1, tag[i], SMALL);
        check_cancelled(&s, 0, "a receive after a cancelled one");
        VERIFY(buf, SMALL, tu_seed(1, 0, SMALL, tag[i]), "message sent after a cancel");
    }
    for (int i = 0; i < 3; ++i)
        CHECK_GUARD(cancelled_buf[i], SMALL, what[i]);
}

static void send_after_cancel(void)
{
    unsigned char buf[SMALL];
    wait_go(0, TAG_GO);
    for (int tag = 77; tag <= 78; ++tag) {
        tu_fill(buf, SMALL, tu_seed(1, 0, SMALL, tag));
        MPI_Send(buf, SMALL, MPI_BYTE, 0, tag, MPI_COMM_WORLD);
    }
}

/* Part 2: rank 0 posts, rank 1's Ssend returns once the receive matched, then rank 1 says so. */
static void cancel_matched(unsigned char *buf, size_t size, int tag)
{
    if (tu_rank == 0) {
        MPI_Request req;
        MPI_Status st;
        memset(buf, 0xee, size);
        MPI_Irecv(buf, (int)size, MPI_BYTE, 1, tag, MPI_COMM_WORLD, &req);
        go(1, TAG_GO);
        wait_go(1, TAG_MATCHED);
        MPI_Cancel(&req);
        MPI_Wait(&req, &st);
        check_cancelled(&st, 0, "a receive cancelled after it matched");
        CHECK_STATUS(&st, 1, tag, size);
        VERIFY(buf, size, tu_seed(1, 0, size, tag), "data of a receive cancelled after match");
    } else {
        tu_fill(buf, size, tu_seed(1, 0, size, tag));
        wait_go(0, TAG_GO);
        MPI_Ssend(buf, (int)size, MPI_BYTE, 0, tag, MPI_COMM_WORLD);
        go(0, TAG_MATCHED);
    }
}

/* Part 3a: rank 0 frees an active Isend; rank 1 acknowledges before rank 0 reuses the buffer. */
static void free_active_send(unsigned char *buf, size_t size, int tag)
{
    if (tu_rank == 0) {
        MPI_Request req;
        tu_fill(buf, size, tu_seed(0, 1, size, tag));
        MPI_Isend(buf, (int)size, MPI_BYTE, 1, tag, MPI_COMM_WORLD, &req);
        MPI_Request_free(&req);
        CHECK(req == MPI_REQUEST_NULL, "Request_free did not set the request to MPI_REQUEST_NULL");
        wait_go(1, TAG_ACK);
    } else {
        MPI_Status st;
        memset(buf, 0xee, size);
        MPI_Recv(buf, (int)size, MPI_BYTE, 0, tag, MPI_COMM_WORLD, &st);
        CHECK_STATUS(&st, 0, tag, size);
        VERIFY(buf, size, tu_seed(0, 1, size, tag), "data of a freed Isend");
        go(0, TAG_ACK);
    }
}

/* Part 3b: rank 0 frees an active Irecv for M1; its Recv with the same envelope must get M2.
 * The freed receive's buffer stays allocated until after MPI_Finalize. */
static void free_active_recv(unsigned char *freed_buf, unsigned char *buf, size_t size, int tag)
{
    if (tu_rank == 0) {
        MPI_Request req;
        MPI_Status st;
        MPI_Irecv(freed_buf, (int)size, MPI_BYTE, 1, tag, MPI_COMM_WORLD, &req);
        MPI_Request_free(&req);
        CHECK(req == MPI_REQUEST_NULL, "Request_free did not set the request to MPI_REQUEST_NULL");
        go(1, TAG_GO);
        memset(buf, 0xee, SMALL);
        MPI_Recv(buf, SMALL, MPI_BYTE, 1, tag, MPI_COMM_WORLD, &st);
        CHECK_STATUS(&st, 1, tag, SMALL);
        VERIFY(buf, SMALL, tu_seed(1, 0, SMALL, tag + 1),
               "the message after the one a freed Irecv takes");
    } else {
        MPI_Request req[2];
        unsigned char *m2 = tu_malloc(SMALL);
        tu_fill(buf, size, tu_seed(1, 0, size, tag));
        tu_fill(m2, SMALL, tu_seed(1, 0, SMALL, tag + 1));
        wait_go(0, TAG_GO);
        MPI_Isend(buf, (int)size, MPI_BYTE, 0, tag, MPI_COMM_WORLD, &req[0]);
        MPI_Isend(m2, SMALL, MPI_BYTE, 0, tag, MPI_COMM_WORLD, &req[1]);
        MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
        free(m2);
    }
}

int main(int argc, char **argv)
{
    tu_init(&argc, &argv);
    tu_require_ranks(2, 0);
    unsigned char *buf = tu_malloc(LARGE);
    unsigned char *freed_buf = tu_malloc(LARGE);
    if (tu_rank == 0)
        cancel_unmatched();
    else if (tu_rank == 1)
        send_after_cancel();
    if (tu_rank < 2) {
        cancel_matched(buf, SMALL, 10);
        cancel_matched(buf, LARGE, 11);
        free_active_send(buf, SMALL, 20);
        free_active_send(buf, LARGE, 21);
        free_active_recv(freed_buf, buf, LARGE, 30);
    }
    free(buf);
    int rc = tu_finish("cancelled unmatched receives (Wait, Test, Waitall), failed cancel after "
                       "match (eager, rendezvous), Request_free of active Isend and Irecv");
    free(freed_buf);
    return rc;
}
