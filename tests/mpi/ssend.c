/* Send modes between ranks 0 and 1 (other ranks idle):
 *   Issend:  rank 0's Issend stays incomplete under MPI_Test, called for 50 ms, while rank 1 has
 *            not posted the receive (it waits for rank 0's "go", sent only after that loop);
 *            then it completes. Eager and rendezvous sizes.
 *   Ssend:   rank 1 sees the message with MPI_Probe, sleeps 200 ms, then receives: rank 0's
 *            Ssend cannot have returned in less than 200 ms.
 *   Rsend:   into a receive rank 1 posted before telling rank 0 it may send.
 *   Bsend:   with an attached buffer of exactly the documented size (sum of message size plus
 *            MPI_BSEND_OVERHEAD): Bsends return before rank 1 posts anything, the user buffers
 *            may be overwritten at once, Buffer_detach returns the attached address and size and
 *            waits until the buffered data left (rank 1 receives late, and rank 0 scribbles on the
 *            detached buffer); attached twice; a Bsend (to self) too large for the buffer fails
 *            with MPI_ERR_BUFFER under MPI_ERRORS_RETURN. */
#include "test_util.h"

enum { TAG_GO = 900, TAG_READY = 901 };
static const size_t sizes[] = {0, 8, 1024, 65537, (size_t)1 << 20};
#define NSIZES ((int)(sizeof sizes / sizeof sizes[0]))
#define MAX_SIZE ((size_t)1 << 20)

static void go(int to, int tag) { MPI_Send(NULL, 0, MPI_BYTE, to, tag, MPI_COMM_WORLD); }
static void wait_go(int from, int tag)
{
    MPI_Recv(NULL, 0, MPI_BYTE, from, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

static void receive_and_verify(unsigned char *buf, size_t size, int tag, long iter,
                               const char *what)
{
    MPI_Status st;
    memset(buf, 0xee, size);
    MPI_Recv(buf, (int)size, MPI_BYTE, 0, tag, MPI_COMM_WORLD, &st);
    CHECK_STATUS(&st, 0, tag, size);
    VERIFY(buf, size, tu_seed(0, 1, size, iter), what);
}

static void issend_waits_for_the_receive(unsigned char *buf)
{
    for (int i = 0; i < NSIZES; ++i) {
        size_t size = sizes[i];
        int tag = 100 + i;
        if (tu_rank == 0) {
            MPI_Request req;
            MPI_Status st;
            int flag = 0;
            long calls = 0;
            tu_fill(buf, size, tu_seed(0, 1, size, tag));
            MPI_Issend(buf, (int)size, MPI_BYTE, 1, tag, MPI_COMM_WORLD, &req);
            double end = MPI_Wtime() + 0.05;
            while (MPI_Wtime() < end || calls < 1000) {
                MPI_Test(&req, &flag, &st);
                ++calls;
                CHECK(!flag, "Issend of %zu bytes completed (MPI_Test call %ld) before rank 1 "
                      "posted its receive", size, calls);
            }
            go(1, TAG_GO);
            TU_TEST_UNTIL_DONE(&req, &st, "Issend after the receive was posted");
        } else {
            wait_go(0, TAG_GO);
            receive_and_verify(buf, size, tag, tag, "Issend data");
        }
    }
}

static void ssend_returns_after_the_match(unsigned char *buf)
{
    static const size_t ssizes[] = {0, (size_t)1 << 20};
    for (int i = 0; i < 2; ++i) {
        size_t size = ssizes[i];
        int tag = 200 + i;
        if (tu_rank == 0) {
            tu_fill(buf, size, tu_seed(0, 1, size, tag));
            double t0 = MPI_Wtime();
            MPI_Ssend(buf, (int)size, MPI_BYTE, 1, tag, MPI_COMM_WORLD);
            double took = MPI_Wtime() - t0;
            CHECK(took >= 0.19, "Ssend of %zu bytes returned after %.3f s, but the receive was "
                  "posted only 0.2 s after the message arrived", size, took);
        } else {
            MPI_Probe(0, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            tu_sleep_ms(200);
            receive_and_verify(buf, size, tag, tag, "Ssend data");
        }
    }
}

static void rsend_into_posted_receive(unsigned char *buf)
{
    for (int i = 0; i < NSIZES; ++i) {
        size_t size = sizes[i];
        int tag = 300 + i;
        if (tu_rank == 0) {
            tu_fill(buf, size, tu_seed(0, 1, size, tag));
            wait_go(1, TAG_READY);
            MPI_Rsend(buf, (int)size, MPI_BYTE, 1, tag, MPI_COMM_WORLD);
        } else {
            MPI_Request req;
            MPI_Status st;
            memset(buf, 0xee, size);
            MPI_Irecv(buf, (int)size, MPI_BYTE, 0, tag, MPI_COMM_WORLD, &req);
            go(0, TAG_READY);
            MPI_Wait(&req, &st);
            CHECK_STATUS(&st, 0, tag, size);
            VERIFY(buf, size, tu_seed(0, 1, size, tag), "Rsend data");
        }
    }
}

static void bsend_round(unsigned char *attached, int attached_size, int round)
{
    if (tu_rank == 0) {
        MPI_Buffer_attach(attached, attached_size);
        unsigned char *user = tu_malloc(MAX_SIZE);
        for (int i = 0; i < NSIZES; ++i) {
            int tag = 400 + 10 * round + i;
            tu_fill(user, sizes[i], tu_seed(0, 1, sizes[i], tag));
            MPI_Bsend(user, (int)sizes[i], MPI_BYTE, 1, tag, MPI_COMM_WORLD);
            memset(user, 0xdd, sizes[i]); /* the message was copied: the buffer is ours again */
        }
        free(user);
        go(1, TAG_GO); /* all Bsends returned while rank 1 had posted nothing */
        void *addr = NULL;
        int size = -1;
        MPI_Buffer_detach(&addr, &size);
        CHECK(addr == (void *)attached && size == attached_size,
              "Buffer_detach returned %p and %d, expected the attached %p and %d", addr, size,
              (void *)attached, attached_size);
        memset(attached, 0xdd, (size_t)attached_size); /* detach waited: nothing needs it now */
        go(1, TAG_READY);
    } else {
        unsigned char *buf = tu_malloc(MAX_SIZE);
        wait_go(0, TAG_GO);
        tu_sleep_ms(50); /* so the detach has something to wait for */
        for (int i = NSIZES - 1; i >= 0; --i) {
            int tag = 400 + 10 * round + i;
            receive_and_verify(buf, sizes[i], tag, tag, "Bsend data");
        }
        wait_go(0, TAG_READY);
        free(buf);
    }
}

static void bsend_too_large(void)
{
    if (tu_rank != 0)
        return;
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    static unsigned char payload[(size_t)1 << 20]; /* rendezvous-sized: it must be buffered */
    memset(payload, 1, sizeof payload);
    int small_size = 100 + MPI_BSEND_OVERHEAD;
    unsigned char *small = tu_malloc((size_t)small_size);
    CHECK_MPI(MPI_Buffer_attach(small, small_size));
    /* To itself: Open MPI 4.1 loses its per-peer message order after this error, and every
     * later message to that peer hangs; no message to self follows. */
    CHECK_CLASS(MPI_Bsend(payload, (int)sizeof payload, MPI_BYTE, 0, 499, MPI_COMM_WORLD),
                MPI_ERR_BUFFER);
    void *addr;
    int size;
    CHECK_MPI(MPI_Buffer_detach(&addr, &size));
    free(small);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
}

int main(int argc, char **argv)
{
    tu_init(&argc, &argv);
    tu_require_ranks(2, 0);
    unsigned char *buf = tu_malloc(MAX_SIZE);
    int attached_size = 0;
    for (int i = 0; i < NSIZES; ++i)
        attached_size += (int)sizes[i] + MPI_BSEND_OVERHEAD;
    unsigned char *attached = tu_malloc((size_t)attached_size);
    if (tu_rank < 2) {
        issend_waits_for_the_receive(buf);
        ssend_returns_after_the_match(buf);
        rsend_into_posted_receive(buf);
        bsend_round(attached, attached_size, 0);
        bsend_round(attached, attached_size, 1);
        bsend_too_large();
    }
    free(attached);
    free(buf);
    return tu_finish("Issend incomplete until the receive is posted, Ssend waits for the match, "
                     "Rsend, Bsend with attach/detach (sizes 0 B to 1 MiB)");
}
