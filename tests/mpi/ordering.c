/* Matching order with wildcards: rank 0 receives from every other rank. Each message carries
 * its sender, sequence number and tag (test_util.h), and sizes mix eager messages with large
 * ones, so a large message followed by small ones from the same sender must not be overtaken.
 *   1. Recv(ANY_SOURCE, ANY_TAG): per-sender order (non-overtaking) and the status fields.
 *   2. Recv(ANY_SOURCE, tag) tag by tag, in reverse tag order: order per (sender, tag).
 *   3. Recv(sender, ANY_TAG) sender by sender, in reverse rank order.
 *   4. Wildcard Irecvs posted before the messages exist: they match in posting order.
 *   5. Posted receives mixing wildcards and exact envelopes: each message goes to the earliest
 *      posted receive that matches it.
 *   6. The same rule for messages already waiting (unexpected) when the receives come.
 * Every sender waits for rank 0's "go" before each phase, so phases never mix. */
#include "test_util.h"

enum { TAG_GO = 100, PHASE1_MSGS = 100, PHASE2_MSGS = 60, PHASE3_MSGS = 40, PHASE4_MSGS = 30 };
#define MAX_MSG ((size_t)(1 << 20) + 64)
#define PHASE4_MAX_MSG ((size_t)(256 << 10) + 4096) /* phase 4 has no 1 MiB messages */

/* Message sizes: mostly small, every so often a large one (rendezvous in any implementation). */
static size_t size_of(int phase, int src, int seq)
{
    if (phase == 1 && seq % 25 == 24)
        return ((size_t)1 << 20) + (size_t)src;
    if (seq % 10 == 3)
        return ((size_t)256 << 10) + 7 * (size_t)src + (size_t)phase;
    if (seq % 10 == 8)
        return 4096 + 1 + (size_t)seq;
    return TU_HEADER_SIZE + (size_t)((seq * 13 + src * 5) % 200);
}

static int tag_of(int phase, int seq)
{
    static const int modulus[] = {0, 7, 4, 5, 3};
    return seq % modulus[phase];
}

static void wait_for_go(void)
{
    MPI_Recv(NULL, 0, MPI_BYTE, 0, TAG_GO, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

static void send_go_to_all(void)
{
    for (int r = 1; r < tu_size; ++r)
        MPI_Send(NULL, 0, MPI_BYTE, r, TAG_GO, MPI_COMM_WORLD);
}

/* A sender's side of phases 1-4: every message of the phase in flight at once. */
static void send_phase(int phase, int count)
{
    wait_for_go();
    MPI_Request *req = tu_malloc(sizeof *req * (size_t)count);
    unsigned char **buf = tu_malloc(sizeof *buf * (size_t)count);
    for (int seq = 0; seq < count; ++seq) {
        size_t size = size_of(phase, tu_rank, seq);
        buf[seq] = tu_malloc(size);
        tu_msg_write(buf[seq], size, tu_rank, 0, seq, tag_of(phase, seq));
        MPI_Isend(buf[seq], (int)size, MPI_BYTE, 0, tag_of(phase, seq), MPI_COMM_WORLD, &req[seq]);
    }
    MPI_Waitall(count, req, MPI_STATUSES_IGNORE);
    for (int seq = 0; seq < count; ++seq)
        free(buf[seq]);
    free(buf);
    free(req);
}

/* Checks one received message against its status and the expected sequence number. */
static struct tu_header check_message(int phase, const void *buf, const MPI_Status *st,
                                      int want_seq, const char *what)
{
    int count = tu_count(st);
    struct tu_header h = MSG_READ(buf, (size_t)count, what);
    CHECK(st->MPI_SOURCE == h.src && st->MPI_TAG == h.tag,
          "%s: status says source %d tag %d, the message was sent by %d with tag %d", what,
          st->MPI_SOURCE, st->MPI_TAG, h.src, h.tag);
    CHECK(h.seq == want_seq,
          "%s: got message %d (tag %d) from rank %d, expected message %d: order not kept", what,
          h.seq, h.tag, h.src, want_seq);
    CHECK_EQ((size_t)count, size_of(phase, h.src, h.seq));
    return h;
}

static void receive_any_any(unsigned char *buf, int *next)
{
    int total = (tu_size - 1) * PHASE1_MSGS;
    for (int r = 1; r < tu_size; ++r)
        next[r] = 0;
    for (int i = 0; i < total; ++i) {
        MPI_Status st;
        MPI_Recv(buf, (int)MAX_MSG, MPI_BYTE, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
        CHECK(st.MPI_SOURCE >= 1 && st.MPI_SOURCE < tu_size, "source %d", st.MPI_SOURCE);
        check_message(1, buf, &st, next[st.MPI_SOURCE]++, "phase 1, Recv(ANY_SOURCE, ANY_TAG)");
    }
}

static void receive_by_tag(unsigned char *buf, int *next)
{
    for (int tag = 3; tag >= 0; --tag) {
        for (int r = 1; r < tu_size; ++r)
            next[r] = tag; /* this tag's first sequence number: tags are seq % 4 */
        for (int i = 0; i < (tu_size - 1) * PHASE2_MSGS / 4; ++i) {
            MPI_Status st;
            MPI_Recv(buf, (int)MAX_MSG, MPI_BYTE, MPI_ANY_SOURCE, tag, MPI_COMM_WORLD, &st);
            CHECK_EQ(st.MPI_TAG, tag);
            CHECK(st.MPI_SOURCE >= 1 && st.MPI_SOURCE < tu_size, "source %d", st.MPI_SOURCE);
            check_message(2, buf, &st, next[st.MPI_SOURCE], "phase 2, Recv(ANY_SOURCE, tag)");
            next[st.MPI_SOURCE] += 4;
        }
    }
}

static void receive_by_source(unsigned char *buf)
{
    for (int src = tu_size - 1; src >= 1; --src)
        for (int seq = 0; seq < PHASE3_MSGS; ++seq) {
            MPI_Status st;
            MPI_Recv(buf, (int)MAX_MSG, MPI_BYTE, src, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
            CHECK_EQ(st.MPI_SOURCE, src);
            check_message(3, buf, &st, seq, "phase 3, Recv(source, ANY_TAG)");
        }
}

static void receive_preposted_wildcards(int *next)
{
    int total = (tu_size - 1) * PHASE4_MSGS;
    MPI_Request *req = tu_malloc(sizeof *req * (size_t)total);
    MPI_Status *st = tu_malloc(sizeof *st * (size_t)total);
    unsigned char **buf = tu_malloc(sizeof *buf * (size_t)total);
    for (int i = 0; i < total; ++i) {
        buf[i] = tu_malloc(PHASE4_MAX_MSG);
        MPI_Irecv(buf[i], (int)PHASE4_MAX_MSG, MPI_BYTE, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD,
                  &req[i]);
    }
    send_go_to_all();
    MPI_Waitall(total, req, st);
    for (int r = 1; r < tu_size; ++r)
        next[r] = 0;
    for (int i = 0; i < total; ++i) {
        CHECK(st[i].MPI_SOURCE >= 1 && st[i].MPI_SOURCE < tu_size, "source %d", st[i].MPI_SOURCE);
        check_message(4, buf[i], &st[i], next[st[i].MPI_SOURCE]++,
                      "phase 4, pre-posted Irecv(ANY_SOURCE, ANY_TAG), in posting order");
        free(buf[i]);
    }
    free(buf);
    free(st);
    free(req);
}

/* Phases 5 and 6 use rank 1 only: four messages A (tag 5, large), B (tag 3), C (tag 5), D (tag 5),
 * numbered 0-3, and in phase 6 a notice N (tag 9) after them. */
static const int small_tags[4] = {5, 3, 5, 5};
static size_t small_size(int seq) { return seq == 0 ? (size_t)300000 : (size_t)(64 + seq); }

static void send_abcd(int notice)
{
    wait_for_go();
    MPI_Request req[5];
    unsigned char *buf[5];
    for (int seq = 0; seq < 5; ++seq) {
        int tag = seq < 4 ? small_tags[seq] : 9;
        if (seq == 4 && !notice) {
            req[seq] = MPI_REQUEST_NULL;
            buf[seq] = NULL;
            continue;
        }
        size_t size = seq < 4 ? small_size(seq) : TU_HEADER_SIZE;
        buf[seq] = tu_malloc(size);
        tu_msg_write(buf[seq], size, 1, 0, seq, tag);
        MPI_Isend(buf[seq], (int)size, MPI_BYTE, 0, tag, MPI_COMM_WORLD, &req[seq]);
    }
    MPI_Waitall(5, req, MPI_STATUSES_IGNORE);
    for (int seq = 0; seq < 5; ++seq)
        free(buf[seq]);
}

/* Receives for phase 5/6 in this order; each must get the message numbered want[i]. */
static const int recv_src[4] = {MPI_ANY_SOURCE, 1, MPI_ANY_SOURCE, 1};
static const int recv_tag[4] = {5, MPI_ANY_TAG, MPI_ANY_TAG, 5};
static const int posted_gets[4] = {0, 1, 2, 3};

static void check_abcd(unsigned char *buf, const MPI_Status *st, int want, const char *what)
{
    struct tu_header h = MSG_READ(buf, (size_t)tu_count(st), what);
    CHECK(h.src == 1 && h.seq == want,
          "%s: got message %d (tag %d) from rank %d, expected message %d (tag %d) from rank 1",
          what, h.seq, h.tag, h.src, want, small_tags[want]);
    CHECK_STATUS(st, 1, small_tags[want], small_size(want));
}

static void receive_posted_mixed(void)
{
    MPI_Request req[4];
    MPI_Status st[4];
    unsigned char *buf[4];
    for (int i = 0; i < 4; ++i) {
        buf[i] = tu_malloc(MAX_MSG);
        MPI_Irecv(buf[i], (int)MAX_MSG, MPI_BYTE, recv_src[i], recv_tag[i], MPI_COMM_WORLD,
                  &req[i]);
    }
    MPI_Send(NULL, 0, MPI_BYTE, 1, TAG_GO, MPI_COMM_WORLD);
    MPI_Waitall(4, req, st);
    static const char *what[4] = {"phase 5, posted Irecv(ANY_SOURCE, 5)",
                                  "phase 5, posted Irecv(1, ANY_TAG)",
                                  "phase 5, posted Irecv(ANY_SOURCE, ANY_TAG)",
                                  "phase 5, posted Irecv(1, 5)"};
    for (int i = 0; i < 4; ++i) {
        check_abcd(buf[i], &st[i], posted_gets[i], what[i]);
        free(buf[i]);
    }
}

/* The notice (tag 9) is received first, so A-D are all waiting when the receives come; each
 * receive then takes the earliest waiting message it matches: B for (ANY_SOURCE, 3), then A for
 * (1, ANY_TAG), C for (ANY_SOURCE, ANY_TAG), D for (1, 5). */
static void receive_unexpected_mixed(void)
{
    static const int src[4] = {MPI_ANY_SOURCE, 1, MPI_ANY_SOURCE, 1};
    static const int tag[4] = {3, MPI_ANY_TAG, MPI_ANY_TAG, 5};
    static const int gets[4] = {1, 0, 2, 3};
    static const char *what[4] = {"phase 6, Recv(ANY_SOURCE, 3) of waiting messages",
                                  "phase 6, Recv(1, ANY_TAG) of waiting messages",
                                  "phase 6, Recv(ANY_SOURCE, ANY_TAG) of waiting messages",
                                  "phase 6, Recv(1, 5) of waiting messages"};
    unsigned char *buf = tu_malloc(MAX_MSG);
    MPI_Status st;
    MPI_Send(NULL, 0, MPI_BYTE, 1, TAG_GO, MPI_COMM_WORLD);
    MPI_Recv(buf, (int)MAX_MSG, MPI_BYTE, 1, 9, MPI_COMM_WORLD, &st);
    struct tu_header h = MSG_READ(buf, (size_t)tu_count(&st), "phase 6 notice");
    CHECK(h.seq == 4, "phase 6: Recv(1, 9) got message %d, expected the notice (4)", h.seq);
    for (int i = 0; i < 4; ++i) {
        MPI_Recv(buf, (int)MAX_MSG, MPI_BYTE, src[i], tag[i], MPI_COMM_WORLD, &st);
        check_abcd(buf, &st, gets[i], what[i]);
    }
    free(buf);
}

int main(int argc, char **argv)
{
    tu_init(&argc, &argv);
    tu_require_ranks(2, 0);
    if (tu_rank == 0) {
        unsigned char *buf = tu_malloc(MAX_MSG);
        int *next = tu_malloc(sizeof *next * (size_t)tu_size);
        send_go_to_all();
        receive_any_any(buf, next);
        send_go_to_all();
        receive_by_tag(buf, next);
        send_go_to_all();
        receive_by_source(buf);
        receive_preposted_wildcards(next); /* sends its own go once the receives are posted */
        receive_posted_mixed();
        receive_unexpected_mixed();
        send_go_to_all(); /* the end: no wildcard receive is pending any more */
        free(next);
        free(buf);
    } else {
        send_phase(1, PHASE1_MSGS);
        send_phase(2, PHASE2_MSGS);
        send_phase(3, PHASE3_MSGS);
        send_phase(4, PHASE4_MSGS);
        if (tu_rank == 1) {
            send_abcd(0);
            send_abcd(1);
        }
        wait_for_go();
    }
    return tu_finish("%d senders: per-sender order kept through ANY_SOURCE/ANY_TAG, per-tag and "
                     "per-source receives, pre-posted and unexpected wildcard matching",
                     tu_size - 1);
}
