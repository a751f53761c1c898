/* MPI_Cancel of sends (rank 0 sends to rank 1, and to itself; ranks 2.. send rank 1 traffic on
 * the same tags, which rank 1 receives with MPI_ANY_SOURCE):
 *   1. Unmatched sends, cancelled: eager and rendezvous, standard and synchronous, still in
 *      flight or already in the receiver's unexpected queue (rank 1 probed them first): Wait
 *      returns, Test_cancelled says true, and the receiver never gets them: the next message
 *      with that envelope is the one it receives, byte for byte.
 *   2. Sends the receiver matched first (its receive completed, and it said so): the cancel
 *      fails, Wait returns, Test_cancelled says false, the data arrived intact.
 *   3. A flood of 600 eager sends (many waiting for BTL resources) with every other one
 *      cancelled: exactly the others arrive, in order, byte for byte.
 *   4. A persistent send cancelled, then started again; an Ibsend of 1 MiB cancelled: its
 *      space in a buffer that holds one such message is free again for the next Bsend.
 *   5. Rank 0 to itself (btl_self): cancelled, and the next message is the one received.
 *   6. With --at-finalize: sends to a rank that is already in MPI_Finalize, cancelled.
 * Other ranks' messages on the same tags arrive throughout, to MPI_ANY_SOURCE receives. */
#include "test_util.h"

enum { TAG_GO = 900, TAG_HAVE = 901, TAG_FLOOD = 300 };
#define SMALL 100
#define LARGE ((size_t)1 << 20)
#define FLOOD 600

static void go(int to, int tag) { CHECK_MPI(MPI_Send(NULL, 0, MPI_BYTE, to, tag, MPI_COMM_WORLD)); }
static void wait_go(int from, int tag)
{
    CHECK_MPI(MPI_Recv(NULL, 0, MPI_BYTE, from, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
}

static int cancelled_of(const MPI_Status *st)
{
    int flag = -1;
    CHECK_MPI(MPI_Test_cancelled(st, &flag));
    return flag;
}

/* Rank 1: receives what rank 0 sent with tag (not cancelled, seed iteration 1) and, from every
 * rank >= 2, its message with that tag, in any order, through MPI_ANY_SOURCE; then nothing more
 * with that tag is there. */
static void receive_survivors(unsigned char *buf, size_t size, int tag)
{
    int from0 = 0, others = 0;
    for (int i = 0; i < tu_size - 1; ++i) {
        MPI_Status st;
        memset(buf, 0xee, size);
        CHECK_MPI(MPI_Recv(buf, (int)size, MPI_BYTE, MPI_ANY_SOURCE, tag, MPI_COMM_WORLD, &st));
        CHECK(st.MPI_SOURCE != 1, "tag %d: a message from rank 1 to itself", tag);
        CHECK_STATUS(&st, st.MPI_SOURCE, tag, size);
        CHECK(cancelled_of(&st) == 0, "tag %d: a received message says cancelled", tag);
        VERIFY(buf, size, tu_seed(st.MPI_SOURCE, 1, size, tag * 10 + 1),
               "the message after a cancelled one (a cancelled message is never received)");
        if (st.MPI_SOURCE == 0)
            ++from0;
        else
            ++others;
    }
    CHECK(from0 == 1 && others == tu_size - 2, "tag %d: %d messages from rank 0, %d from others",
          tag, from0, others);
    int flag = 1;
    CHECK_MPI(MPI_Iprobe(MPI_ANY_SOURCE, tag, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE));
    CHECK(!flag, "tag %d: a message is left over (a cancelled send was delivered)", tag);
}

/* Ranks >= 2: their message for one scenario. */
static void send_extra(unsigned char *buf, size_t size, int tag)
{
    tu_fill(buf, size, tu_seed(tu_rank, 1, size, tag * 10 + 1));
    CHECK_MPI(MPI_Send(buf, (int)size, MPI_BYTE, 1, tag, MPI_COMM_WORLD));
}

/* Part 1. probed: rank 1 has the message in its unexpected queue (MPI_Probe saw it) before rank
 * 0 cancels; otherwise it may be anywhere on its way. */
static void cancel_unmatched(unsigned char *buf, unsigned char *next, size_t size, int tag, int sync,
                             int probed)
{
    if (tu_rank == 0) {
        MPI_Request req;
        MPI_Status st;
        tu_fill(buf, size, tu_seed(0, 1, size, tag * 10));
        if (sync)
            CHECK_MPI(MPI_Issend(buf, (int)size, MPI_BYTE, 1, tag, MPI_COMM_WORLD, &req));
        else
            CHECK_MPI(MPI_Isend(buf, (int)size, MPI_BYTE, 1, tag, MPI_COMM_WORLD, &req));
        if (probed)
            wait_go(1, TAG_HAVE);
        CHECK_MPI(MPI_Cancel(&req));
        if (tag % 2)
            CHECK_MPI(MPI_Wait(&req, &st));
        else
            TU_TEST_UNTIL_DONE(&req, &st, "a cancelled send");
        CHECK(req == MPI_REQUEST_NULL, "tag %d: request not MPI_REQUEST_NULL after completion", tag);
        CHECK(cancelled_of(&st) == 1, "tag %d (%zu B, %s, %s): Test_cancelled false for an unmatched send",
              tag, size, sync ? "Issend" : "Isend", probed ? "probed" : "unprobed");
        /* Reusing the buffer at once is safe: a cancelled message is gone. */
        tu_fill(next, size, tu_seed(0, 1, size, tag * 10 + 1));
        CHECK_MPI(MPI_Isend(next, (int)size, MPI_BYTE, 1, tag, MPI_COMM_WORLD, &req));
        go(1, TAG_GO);
        CHECK_MPI(MPI_Wait(&req, &st));
        CHECK(cancelled_of(&st) == 0, "tag %d: the send after a cancelled one says cancelled", tag);
    } else if (tu_rank == 1) {
        if (probed) {
            MPI_Status st;
            CHECK_MPI(MPI_Probe(0, tag, MPI_COMM_WORLD, &st));
            CHECK_STATUS(&st, 0, tag, size);
            go(0, TAG_HAVE);
        }
        wait_go(0, TAG_GO);  /* rank 0 has its answer: the cancel is settled */
        receive_survivors(buf, size, tag);
    } else {
        send_extra(buf, size, tag);
    }
}

/* Part 2: rank 1's receive completes before rank 0 cancels. */
static void cancel_matched(unsigned char *buf, size_t size, int tag, int sync)
{
    if (tu_rank == 0) {
        MPI_Request req;
        MPI_Status st;
        tu_fill(buf, size, tu_seed(0, 1, size, tag));
        if (sync)
            CHECK_MPI(MPI_Issend(buf, (int)size, MPI_BYTE, 1, tag, MPI_COMM_WORLD, &req));
        else
            CHECK_MPI(MPI_Isend(buf, (int)size, MPI_BYTE, 1, tag, MPI_COMM_WORLD, &req));
        wait_go(1, TAG_HAVE);
        CHECK_MPI(MPI_Cancel(&req));
        CHECK_MPI(MPI_Wait(&req, &st));
        CHECK(cancelled_of(&st) == 0, "tag %d (%zu B): Test_cancelled true for a matched send", tag,
              size);
    } else if (tu_rank == 1) {
        MPI_Status st;
        memset(buf, 0xee, size);
        CHECK_MPI(MPI_Recv(buf, (int)size, MPI_BYTE, 0, tag, MPI_COMM_WORLD, &st));
        CHECK_STATUS(&st, 0, tag, size);
        VERIFY(buf, size, tu_seed(0, 1, size, tag), "a send whose cancel came too late");
        go(0, TAG_HAVE);
    }
}

/* Part 3: rank 1 does not receive while rank 0 floods it; rank 0 cancels every odd message. */
static void flood(unsigned char *bufs)
{
    if (tu_rank == 0) {
        MPI_Request req[FLOOD];
        MPI_Status st[FLOOD];
        for (int i = 0; i < FLOOD; ++i) {
            tu_fill(bufs + (size_t)i * SMALL, SMALL, tu_seed(0, 1, SMALL, 5000 + i));
            CHECK_MPI(MPI_Isend(bufs + (size_t)i * SMALL, SMALL, MPI_BYTE, 1, TAG_FLOOD, MPI_COMM_WORLD,
                                &req[i]));
        }
        for (int i = 1; i < FLOOD; i += 2)
            CHECK_MPI(MPI_Cancel(&req[i]));
        CHECK_MPI(MPI_Waitall(FLOOD, req, st));
        for (int i = 0; i < FLOOD; ++i)
            CHECK(cancelled_of(&st[i]) == i % 2, "flood message %d: Test_cancelled %d", i,
                  cancelled_of(&st[i]));
        go(1, TAG_GO);
    } else if (tu_rank == 1) {
        unsigned char buf[SMALL];
        wait_go(0, TAG_GO);
        for (int i = 0; i < FLOOD; i += 2) {
            MPI_Status st;
            CHECK_MPI(MPI_Recv(buf, SMALL, MPI_BYTE, 0, TAG_FLOOD, MPI_COMM_WORLD, &st));
            CHECK_STATUS(&st, 0, TAG_FLOOD, SMALL);
            VERIFY(buf, SMALL, tu_seed(0, 1, SMALL, 5000 + i), "the flood's uncancelled messages, in order");
        }
        int flag = 1;
        CHECK_MPI(MPI_Iprobe(0, TAG_FLOOD, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE));
        CHECK(!flag, "a cancelled flood message was delivered");
    }
}

/* Part 4a: a persistent send, cancelled once, then started again and received. */
static void persistent(unsigned char *buf, size_t size, int tag)
{
    if (tu_rank == 0) {
        MPI_Request req;
        MPI_Status st;
        CHECK_MPI(MPI_Send_init(buf, (int)size, MPI_BYTE, 1, tag, MPI_COMM_WORLD, &req));
        tu_fill(buf, size, tu_seed(0, 1, size, tag * 10));
        CHECK_MPI(MPI_Start(&req));
        CHECK_MPI(MPI_Cancel(&req));
        CHECK_MPI(MPI_Wait(&req, &st));
        CHECK(req != MPI_REQUEST_NULL, "a persistent request was freed by Wait");
        CHECK(cancelled_of(&st) == 1, "persistent %zu B: not cancelled", size);
        tu_fill(buf, size, tu_seed(0, 1, size, tag * 10 + 1));
        CHECK_MPI(MPI_Start(&req));
        go(1, TAG_GO);
        CHECK_MPI(MPI_Wait(&req, &st));
        CHECK(cancelled_of(&st) == 0, "persistent %zu B restarted: says cancelled", size);
        CHECK_MPI(MPI_Request_free(&req));
    } else if (tu_rank == 1) {
        wait_go(0, TAG_GO);
        receive_survivors(buf, size, tag);
    } else {
        send_extra(buf, size, tag);
    }
}

/* Part 4b: the attached buffer holds one LARGE message; a cancelled Ibsend gives its space back. */
static void buffered(unsigned char *buf, int tag)
{
    if (tu_rank == 0) {
        int bsize = (int)LARGE + MPI_BSEND_OVERHEAD;
        void *space = tu_malloc((size_t)bsize), *detached;
        MPI_Request req;
        MPI_Status st;
        CHECK_MPI(MPI_Buffer_attach(space, bsize));
        tu_fill(buf, LARGE, tu_seed(0, 1, LARGE, tag * 10));
        CHECK_MPI(MPI_Ibsend(buf, (int)LARGE, MPI_BYTE, 1, tag, MPI_COMM_WORLD, &req));
        CHECK_MPI(MPI_Cancel(&req));
        CHECK_MPI(MPI_Wait(&req, &st));
        CHECK(cancelled_of(&st) == 1, "Ibsend of 1 MiB: not cancelled");
        tu_fill(buf, LARGE, tu_seed(0, 1, LARGE, tag * 10 + 1));
        MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
        CHECK_MPI(MPI_Bsend(buf, (int)LARGE, MPI_BYTE, 1, tag, MPI_COMM_WORLD));
        MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
        go(1, TAG_GO);
        CHECK_MPI(MPI_Buffer_detach(&detached, &bsize));
        free(space);
    } else if (tu_rank == 1) {
        wait_go(0, TAG_GO);
        receive_survivors(buf, LARGE, tag);
    } else {
        send_extra(buf, LARGE, tag);
    }
}

/* Part 5: rank 0 to itself. */
static void to_self(unsigned char *buf, unsigned char *next, size_t size, int tag)
{
    MPI_Request req;
    MPI_Status st;
    tu_fill(buf, size, tu_seed(0, 0, size, 1));
    CHECK_MPI(MPI_Isend(buf, (int)size, MPI_BYTE, 0, tag, MPI_COMM_WORLD, &req));
    CHECK_MPI(MPI_Cancel(&req));
    CHECK_MPI(MPI_Wait(&req, &st));
    CHECK(cancelled_of(&st) == 1, "a %zu B send to self: not cancelled", size);
    tu_fill(buf, size, tu_seed(0, 0, size, 2));
    CHECK_MPI(MPI_Isend(buf, (int)size, MPI_BYTE, 0, tag, MPI_COMM_WORLD, &req));
    memset(next, 0xee, size);
    CHECK_MPI(MPI_Recv(next, (int)size, MPI_BYTE, MPI_ANY_SOURCE, tag, MPI_COMM_WORLD, &st));
    CHECK_STATUS(&st, 0, tag, size);
    VERIFY(next, size, tu_seed(0, 0, size, 2), "the message to self after a cancelled one");
    CHECK_MPI(MPI_Wait(&req, &st));
    CHECK(cancelled_of(&st) == 0, "a received send to self says cancelled");
}

/* --at-finalize: rank 1 (and any other) goes straight into MPI_Finalize; rank 0 cancels its
 * sends to rank 1 once rank 1 is surely waiting in the final fence, which must still answer. */
static int cancel_at_finalize(void)
{
    if (tu_rank == 0) {
        unsigned char *small = tu_malloc(SMALL), *large = tu_malloc(LARGE);
        MPI_Request req[2];
        MPI_Status st[2];
        tu_fill(small, SMALL, 1);
        tu_fill(large, LARGE, 2);
        CHECK_MPI(MPI_Isend(small, SMALL, MPI_BYTE, 1, 5, MPI_COMM_WORLD, &req[0]));
        CHECK_MPI(MPI_Isend(large, (int)LARGE, MPI_BYTE, 1, 6, MPI_COMM_WORLD, &req[1]));
        tu_sleep_ms(300);
        CHECK_MPI(MPI_Cancel(&req[0]));
        CHECK_MPI(MPI_Cancel(&req[1]));
        CHECK_MPI(MPI_Waitall(2, req, st));
        CHECK(cancelled_of(&st[0]) == 1 && cancelled_of(&st[1]) == 1,
              "sends to a rank in MPI_Finalize: Test_cancelled %d and %d", cancelled_of(&st[0]),
              cancelled_of(&st[1]));
        printf("%s: PASS: %d ranks: eager and rendezvous sends to a rank already in MPI_Finalize "
               "cancelled\n", tu_prog, tu_size);
        fflush(stdout);
        free(small);
        free(large);
    }
    MPI_Finalize();
    return 0;
}

int main(int argc, char **argv)
{
    tu_init(&argc, &argv);
    tu_require_ranks(2, 4);
    if (argc > 1 && strcmp(argv[1], "--at-finalize") == 0)
        return cancel_at_finalize();
    unsigned char *buf = tu_malloc(LARGE), *next = tu_malloc(LARGE);
    int tag = 10;
    for (int probed = 0; probed <= 1; ++probed)
        for (int sync = 0; sync <= 1; ++sync) {
            cancel_unmatched(buf, next, SMALL, tag++, sync, probed);
            cancel_unmatched(buf, next, LARGE, tag++, sync, probed);
        }
    for (int sync = 0; sync <= 1; ++sync, tag += 2)  /* the same tags on every rank */
        if (tu_rank < 2) {
            cancel_matched(buf, SMALL, tag, sync);
            cancel_matched(buf, LARGE, tag + 1, sync);
        }
    unsigned char *bufs = tu_malloc((size_t)FLOOD * SMALL);
    flood(bufs);
    free(bufs);
    persistent(buf, SMALL, tag++);
    persistent(buf, LARGE, tag++);
    buffered(buf, tag++);
    if (tu_rank == 0) {
        to_self(buf, next, SMALL, tag);
        to_self(buf, next, LARGE, tag + 1);
    }
    free(buf);
    free(next);
    return tu_finish("cancelled unmatched sends (eager, rendezvous, Issend; in flight or probed) never "
                     "received, the next one byte for byte; matched sends not cancelled; %d-send flood "
                     "with every other cancelled; persistent, Ibsend (space freed), to self",
                     FLOOD);
}
