/* Probe and Iprobe: rank 0 learns each message's source, tag and size by probing, then receives
 * exactly that message into a buffer of exactly the probed size. Every other rank sends 60
 * messages (0 B, small, 64 KiB + 1 and 1 MiB + 1; six tags) once rank 0 says go. Rank 0
 * alternates between Probe(ANY_SOURCE, ANY_TAG), an Iprobe(ANY_SOURCE, ANY_TAG) loop, and
 * Probe(source, ANY_TAG) / Iprobe(source, tag) for a chosen sender; probing twice shows the same
 * message (probing does not consume it); the Recv(source, tag) that follows gets the probed
 * message: same size, and per sender the next in sending order. Before anything is sent, Iprobe
 * finds nothing. */
#include "test_util.h"

enum { TAG_GO = 900, MSGS = 60, TAGS = 6 };

static size_t size_of(int src, int seq)
{
    switch (seq % 10) {
    case 5:
        return 0;
    case 3:
        return ((size_t)64 << 10) + 1;
    case 9:
        return seq % 20 == 19 ? ((size_t)1 << 20) + 1 : TU_HEADER_SIZE;
    default:
        return TU_HEADER_SIZE + (size_t)((seq * 31 + src * 17) % 3000);
    }
}

static int tag_of(int seq) { return seq % TAGS; }

static void sender(void)
{
    MPI_Request req[MSGS];
    unsigned char *buf[MSGS];
    MPI_Recv(NULL, 0, MPI_BYTE, 0, TAG_GO, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    for (int seq = 0; seq < MSGS; ++seq) {
        size_t size = size_of(tu_rank, seq);
        buf[seq] = tu_malloc(size);
        if (size)
            tu_msg_write(buf[seq], size, tu_rank, 0, seq, tag_of(seq));
        MPI_Isend(buf[seq], (int)size, MPI_BYTE, 0, tag_of(seq), MPI_COMM_WORLD, &req[seq]);
    }
    MPI_Waitall(MSGS, req, MPI_STATUSES_IGNORE);
    for (int seq = 0; seq < MSGS; ++seq)
        free(buf[seq]);
    MPI_Recv(NULL, 0, MPI_BYTE, 0, TAG_GO, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

/* Iprobe until a message is there (a hang fails the test). */
static void iprobe_until_found(int src, int tag, MPI_Status *st)
{
    double end = tu_deadline();
    int flag = 0;
    for (;;) {
        MPI_Iprobe(src, tag, MPI_COMM_WORLD, &flag, st);
        if (flag)
            return;
        CHECK(MPI_Wtime() < end, "Iprobe(%d, %d) found nothing for %.0f s", src, tag,
              TU_HANG_SECONDS);
    }
}

/* One probe-then-receive; `way` picks how to probe. Returns the sender. */
static int probe_and_receive(int way, int *next)
{
    MPI_Status st, again;
    int chosen = 1 + way % (tu_size - 1); /* the sender to ask for, in the ways that choose */
    int src = MPI_ANY_SOURCE, tag = MPI_ANY_TAG;
    const char *how;
    if (next[chosen] < MSGS && way % 4 >= 2) {
        src = chosen;
        tag = way % 4 == 3 ? tag_of(next[chosen]) : MPI_ANY_TAG;
    }
    if (way % 2 == 0) {
        how = src == MPI_ANY_SOURCE ? "Probe(ANY_SOURCE, ANY_TAG)" : "Probe(source, ANY_TAG)";
        MPI_Probe(src, tag, MPI_COMM_WORLD, &st);
    } else {
        how = src == MPI_ANY_SOURCE ? "Iprobe(ANY_SOURCE, ANY_TAG)" : "Iprobe(source, tag)";
        iprobe_until_found(src, tag, &st);
    }
    int from = st.MPI_SOURCE, count = tu_count(&st);
    CHECK(from >= 1 && from < tu_size && next[from] < MSGS,
          "%s found a message from %d, which has nothing left to send", how, from);
    int seq = next[from]++;
    CHECK(src == MPI_ANY_SOURCE || from == src, "%s for source %d found one from %d", how, src,
          from);
    CHECK_STATUS(&st, from, tag_of(seq), size_of(from, seq));

    /* probing again with the found envelope shows the same message */
    MPI_Probe(from, st.MPI_TAG, MPI_COMM_WORLD, &again);
    CHECK_STATUS(&again, from, tag_of(seq), size_of(from, seq));

    unsigned char *buf = tu_malloc((size_t)count);
    MPI_Recv(buf, count, MPI_BYTE, from, st.MPI_TAG, MPI_COMM_WORLD, &again);
    CHECK_STATUS(&again, from, tag_of(seq), size_of(from, seq));
    if (count > 0) {
        struct tu_header h = MSG_READ(buf, (size_t)count, how);
        CHECK(h.src == from && h.seq == seq,
              "%s: received message %d from %d, expected the probed message %d from %d", how,
              h.seq, h.src, seq, from);
    }
    free(buf);
    return from;
}

int main(int argc, char **argv)
{
    tu_init(&argc, &argv);
    tu_require_ranks(2, 0);
    if (tu_rank == 0) {
        int flag = 1;
        for (int i = 0; i < 100 && flag; ++i)
            MPI_Iprobe(MPI_ANY_SOURCE, 999, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
        CHECK(!flag, "Iprobe found a message with tag 999, which nobody sends");
        int *next = tu_malloc(sizeof *next * (size_t)tu_size);
        memset(next, 0, sizeof *next * (size_t)tu_size);
        for (int r = 1; r < tu_size; ++r)
            MPI_Send(NULL, 0, MPI_BYTE, r, TAG_GO, MPI_COMM_WORLD);
        for (int i = 0; i < (tu_size - 1) * MSGS; ++i)
            probe_and_receive(i, next);
        for (int r = 1; r < tu_size; ++r)
            MPI_Send(NULL, 0, MPI_BYTE, r, TAG_GO, MPI_COMM_WORLD);
        free(next);
    } else {
        sender();
    }
    return tu_finish("%d senders x %d messages (0 B to 1 MiB + 1): Probe/Iprobe with and without "
                     "wildcards, then a receive of exactly the probed size",
                     tu_size - 1, MSGS);
}
