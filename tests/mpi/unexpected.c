/* Unexpected messages: every rank but 0 sends to rank 0 before rank 0 has posted any receive
 * (rank 0 sleeps, then waits until each sender's last message is visible to MPI_Probe), and
 * rank 0 then receives in an order different from the sending order.
 *   A. 32 messages per sender, each with its own tag, sizes mixing eager (0 B - 2 KiB) and
 *      rendezvous (64 KiB + 1, 1 MiB + 3) messages; received sender by sender, in reverse rank
 *      order, odd tags descending then even tags ascending, half by Recv, half by Irecvs posted
 *      in one go and completed by Waitall.
 *   B. 1000 small messages per sender, tags seq % 10; received with Recv(ANY_SOURCE, tag), tag 9
 *      first: per (sender, tag) order must hold.
 * Senders wait for rank 0's "go" before each phase. */
#include "test_util.h"

enum { TAG_GO = 1000, TAG_DONE = 1001, A_MSGS = 32, B_MSGS = 1000, B_TAGS = 10 };

static size_t a_size(int src, int seq)
{
    switch (seq % 4) {
    case 1:
        return ((size_t)64 << 10) + 1;
    case 3:
        return seq % 8 == 7 ? ((size_t)1 << 20) + 3 : TU_HEADER_SIZE;
    default:
        return TU_HEADER_SIZE + (size_t)((seq * 61 + src) % 2048);
    }
}

static size_t b_size(int src, int seq) { return TU_HEADER_SIZE + (size_t)((seq + src) % 177); }

static void wait_for_go(void)
{
    MPI_Recv(NULL, 0, MPI_BYTE, 0, TAG_GO, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

/* Rank 0: start a phase and wait until every sender's "done" (its last message) has arrived. */
static void let_senders_go_and_wait(void)
{
    for (int r = 1; r < tu_size; ++r)
        MPI_Send(NULL, 0, MPI_BYTE, r, TAG_GO, MPI_COMM_WORLD);
    tu_sleep_ms(100);
    for (int r = 1; r < tu_size; ++r)
        MPI_Probe(r, TAG_DONE, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

static void send_all(int count, size_t (*size_of)(int, int), int tags)
{
    wait_for_go();
    MPI_Request *req = tu_malloc(sizeof *req * (size_t)(count + 1));
    unsigned char **buf = tu_malloc(sizeof *buf * (size_t)count);
    for (int seq = 0; seq < count; ++seq) {
        size_t size = size_of(tu_rank, seq);
        int tag = seq % tags;
        buf[seq] = tu_malloc(size);
        tu_msg_write(buf[seq], size, tu_rank, 0, seq, tag);
        MPI_Isend(buf[seq], (int)size, MPI_BYTE, 0, tag, MPI_COMM_WORLD, &req[seq]);
    }
    MPI_Isend(NULL, 0, MPI_BYTE, 0, TAG_DONE, MPI_COMM_WORLD, &req[count]);
    MPI_Waitall(count + 1, req, MPI_STATUSES_IGNORE);
    for (int seq = 0; seq < count; ++seq)
        free(buf[seq]);
    free(buf);
    free(req);
}

/* Phase A's receive order: odd tags descending, then even tags ascending. */
static int a_tag_at(int i)
{
    int odd = A_MSGS / 2;
    return i < odd ? A_MSGS - 1 - 2 * i : 2 * (i - odd);
}

static void check_a(const void *buf, const MPI_Status *st, int src, int tag, const char *what)
{
    CHECK_STATUS(st, src, tag, a_size(src, tag));
    struct tu_header h = MSG_READ(buf, a_size(src, tag), what);
    CHECK(h.src == src && h.seq == tag, "%s: got message %d from %d, expected %d from %d", what,
          h.seq, h.src, tag, src);
}

static void receive_a(void)
{
    size_t max = ((size_t)1 << 20) + 3;
    unsigned char *one = tu_malloc(max);
    unsigned char **many = tu_malloc(sizeof *many * A_MSGS / 2);
    MPI_Request req[A_MSGS / 2];
    MPI_Status st[A_MSGS / 2];
    let_senders_go_and_wait();
    for (int src = tu_size - 1; src >= 1; --src) {
        /* first half (odd tags) one blocking Recv at a time */
        for (int i = 0; i < A_MSGS / 2; ++i) {
            int tag = a_tag_at(i);
            MPI_Status s;
            MPI_Recv(one, (int)max, MPI_BYTE, src, tag, MPI_COMM_WORLD, &s);
            check_a(one, &s, src, tag, "phase A, Recv of a waiting message");
        }
        /* second half (even tags) all posted, then Waitall */
        for (int i = 0; i < A_MSGS / 2; ++i) {
            int tag = a_tag_at(A_MSGS / 2 + i);
            many[i] = tu_malloc(a_size(src, tag));
            MPI_Irecv(many[i], (int)a_size(src, tag), MPI_BYTE, src, tag, MPI_COMM_WORLD, &req[i]);
        }
        MPI_Waitall(A_MSGS / 2, req, st);
        for (int i = 0; i < A_MSGS / 2; ++i) {
            check_a(many[i], &st[i], src, a_tag_at(A_MSGS / 2 + i),
                    "phase A, Irecv of a waiting message");
            free(many[i]);
        }
        MPI_Recv(NULL, 0, MPI_BYTE, src, TAG_DONE, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    free(many);
    free(one);
}

static void receive_b(void)
{
    unsigned char buf[TU_HEADER_SIZE + 200];
    int *next = tu_malloc(sizeof *next * (size_t)tu_size);
    let_senders_go_and_wait();
    for (int tag = B_TAGS - 1; tag >= 0; --tag) {
        for (int r = 0; r < tu_size; ++r)
            next[r] = tag;
        for (int i = 0; i < (tu_size - 1) * (B_MSGS / B_TAGS); ++i) {
            MPI_Status st;
            MPI_Recv(buf, (int)sizeof buf, MPI_BYTE, MPI_ANY_SOURCE, tag, MPI_COMM_WORLD, &st);
            int count = tu_count(&st);
            struct tu_header h = MSG_READ(buf, (size_t)count, "phase B, Recv(ANY_SOURCE, tag)");
            CHECK(st.MPI_SOURCE == h.src && st.MPI_TAG == tag && h.tag == tag,
                  "status source %d tag %d, message from %d with tag %d, receive for tag %d",
                  st.MPI_SOURCE, st.MPI_TAG, h.src, h.tag, tag);
            CHECK(h.seq == next[h.src], "phase B: got message %d from %d, expected %d", h.seq,
                  h.src, next[h.src]);
            CHECK_EQ((size_t)count, b_size(h.src, h.seq));
            next[h.src] += B_TAGS;
        }
    }
    for (int r = 1; r < tu_size; ++r)
        MPI_Recv(NULL, 0, MPI_BYTE, r, TAG_DONE, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    free(next);
}

int main(int argc, char **argv)
{
    tu_init(&argc, &argv);
    tu_require_ranks(2, 0);
    if (tu_rank == 0) {
        receive_a();
        receive_b();
    } else {
        send_all(A_MSGS, a_size, A_MSGS);
        send_all(B_MSGS, b_size, B_TAGS);
    }
    return tu_finish("%d senders: %d eager and rendezvous messages each received out of order "
                     "by tag, then %d small ones by ANY_SOURCE per tag, all sent before any "
                     "receive was posted",
                     tu_size - 1, A_MSGS, B_MSGS);
}
