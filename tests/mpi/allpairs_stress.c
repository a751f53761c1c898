/* Many small messages between all pairs: every rank sends the same number of messages to every
 * other rank, in rounds of a window of W messages per peer, all Isends and Irecvs of a round in
 * flight at once (receives posted before the sends in some rounds, after them in others). Each
 * message carries its sender, per-pair sequence number and tag and is verified; receives come
 * in three forms, changing every round:
 *   exact:       Irecv(source, tag) with the tag the next message must have;
 *   any tag:     Irecv(source, ANY_TAG);
 *   any source:  Irecv(ANY_SOURCE, tag), for each of the round's four tags.
 * Each receive must get exactly the message its posting position implies: no loss, no
 * duplicate, no reordering per (source, tag). Tags name the round (4 per round), so no receive
 * can take another round's message. Options: --messages N in all (default 100000),
 * --window W per peer per round (default 64, a multiple of 4). */
#include "test_util.h"

enum { FORM_EXACT, FORM_ANY_TAG, FORM_ANY_SOURCE, FORM_COUNT };
static const char *const form_names[FORM_COUNT] = {"Irecv(source, tag)", "Irecv(source, ANY_TAG)",
                                                   "Irecv(ANY_SOURCE, tag)"};
#define SLOT 64 /* every message fits: header plus up to 40 bytes */

static int tag_of(int round, int seq) { return 4 * (round % 2048) + seq % 4; }
static size_t size_of(int src, int dst, int seq)
{
    return TU_HEADER_SIZE + (size_t)((seq * 7 + src * 3 + dst) % 41);
}

struct round_state {
    int window;             /* messages per peer per round */
    int peers;              /* tu_size - 1 */
    MPI_Request *req;       /* receives first, then sends */
    MPI_Status *st;
    unsigned char *recvbuf; /* one SLOT per receive */
    unsigned char *sendbuf; /* one SLOT per send */
    int *want_src;          /* per receive: the source it must get, or -1 for any */
    int *want_seq;          /* per receive: the sequence number, or -1 if decided by source */
    int *next;              /* FORM_ANY_SOURCE: per (source, tag) the next sequence number */
};

/* The peer with index i in this rank's order (rotated, so not everyone starts with rank 0). */
static int peer_at(int i) { return (tu_rank + 1 + i) % tu_size; }

static void post_receives(struct round_state *s, int round, int form)
{
    int w = s->window, n = 0;
    int first = round * w;
    if (form == FORM_ANY_SOURCE) {
        for (int t = 0; t < 4; ++t)
            for (int k = 0; k < s->peers * w / 4; ++k, ++n) {
                s->want_src[n] = -1;
                s->want_seq[n] = t; /* the tag offset: the source decides the sequence number */
                MPI_Irecv(s->recvbuf + (size_t)n * SLOT, SLOT, MPI_BYTE, MPI_ANY_SOURCE,
                          tag_of(round, t), MPI_COMM_WORLD, &s->req[n]);
            }
        for (int r = 0; r < tu_size; ++r)
            for (int t = 0; t < 4; ++t)
                s->next[r * 4 + t] = first + t;
        return;
    }
    for (int i = 0; i < s->peers; ++i)
        for (int k = 0; k < w; ++k, ++n) {
            int src = peer_at(i), seq = first + k;
            s->want_src[n] = src;
            s->want_seq[n] = seq;
            MPI_Irecv(s->recvbuf + (size_t)n * SLOT, SLOT, MPI_BYTE, src,
                      form == FORM_EXACT ? tag_of(round, seq) : MPI_ANY_TAG, MPI_COMM_WORLD,
                      &s->req[n]);
        }
}

static void post_sends(struct round_state *s, int round)
{
    int w = s->window, nrecv = s->peers * w, n = 0;
    for (int k = 0; k < w; ++k)
        for (int i = 0; i < s->peers; ++i, ++n) {
            int dst = peer_at(i), seq = round * w + k;
            size_t size = size_of(tu_rank, dst, seq);
            unsigned char *buf = s->sendbuf + (size_t)n * SLOT;
            tu_msg_write(buf, size, tu_rank, dst, seq, tag_of(round, seq));
            MPI_Isend(buf, (int)size, MPI_BYTE, dst, tag_of(round, seq), MPI_COMM_WORLD,
                      &s->req[nrecv + n]);
        }
}

static void check_receives(struct round_state *s, int round, int form)
{
    char what[128];
    snprintf(what, sizeof what, "round %d, %s", round, form_names[form]);
    for (int n = 0; n < s->peers * s->window; ++n) {
        const MPI_Status *st = &s->st[n];
        struct tu_header h = MSG_READ(s->recvbuf + (size_t)n * SLOT, (size_t)tu_count(st), what);
        CHECK(st->MPI_SOURCE == h.src && st->MPI_TAG == h.tag,
              "%s: status says source %d tag %d, the message was sent by %d with tag %d", what,
              st->MPI_SOURCE, st->MPI_TAG, h.src, h.tag);
        CHECK(h.tag == tag_of(round, h.seq), "%s: message %d from %d has tag %d, expected %d",
              what, h.seq, h.src, h.tag, tag_of(round, h.seq));
        CHECK_EQ((size_t)tu_count(st), size_of(h.src, tu_rank, h.seq));
        int want = s->want_seq[n];
        if (s->want_src[n] >= 0) {
            CHECK(h.src == s->want_src[n], "%s: receive %d from rank %d got a message from %d",
                  what, n, s->want_src[n], h.src);
        } else {
            CHECK(h.tag % 4 == want, "%s: receive %d for tag offset %d got tag %d", what, n, want,
                  h.tag);
            want = s->next[h.src * 4 + want];
            s->next[h.src * 4 + h.tag % 4] += 4;
        }
        CHECK(h.seq == want,
              "%s: receive %d got message %d from rank %d, expected message %d (lost, "
              "duplicated or reordered)",
              what, n, h.seq, h.src, want);
    }
}

int main(int argc, char **argv)
{
    tu_init(&argc, &argv);
    tu_require_ranks(2, 0);
    long total = (long)tu_option_size(argc, argv, "--messages", 100000);
    int window = (int)tu_option_size(argc, argv, "--window", 64);
    CHECK(window > 0 && window % 4 == 0, "--window must be a positive multiple of 4, got %d",
          window);
    long pairs = (long)tu_size * (tu_size - 1);
    long per_pair = (total + pairs - 1) / pairs;
    int rounds = (int)((per_pair + window - 1) / window);

    struct round_state s;
    s.window = window;
    s.peers = tu_size - 1;
    int nrecv = s.peers * window;
    s.req = tu_malloc(sizeof *s.req * (size_t)nrecv * 2);
    s.st = tu_malloc(sizeof *s.st * (size_t)nrecv * 2);
    s.recvbuf = tu_malloc((size_t)nrecv * SLOT);
    s.sendbuf = tu_malloc((size_t)nrecv * SLOT);
    s.want_src = tu_malloc(sizeof(int) * (size_t)nrecv);
    s.want_seq = tu_malloc(sizeof(int) * (size_t)nrecv);
    s.next = tu_malloc(sizeof(int) * (size_t)tu_size * 4);

    for (int round = 0; round < rounds; ++round) {
        int form = round % FORM_COUNT;
        if ((round / FORM_COUNT) % 2 == 0) { /* receives already waiting for the messages */
            post_receives(&s, round, form);
            post_sends(&s, round);
        } else { /* messages arriving before their receives */
            post_sends(&s, round);
            post_receives(&s, round, form);
        }
        MPI_Waitall(nrecv * 2, s.req, s.st);
        check_receives(&s, round, form);
    }

    /* Every message was accounted for; one more waiting now would be a duplicate (a peer may
     * already be in tu_finish's barrier, so a barrier message is fine). */
    tu_barrier();
    int extra = 0;
    MPI_Status st;
    MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &extra, &st);
    CHECK(!extra || st.MPI_TAG == TU_TAG_BARRIER,
          "a message nobody sent is waiting: source %d, tag %d", st.MPI_SOURCE, st.MPI_TAG);

    free(s.req);
    free(s.st);
    free(s.recvbuf);
    free(s.sendbuf);
    free(s.want_src);
    free(s.want_seq);
    free(s.next);
    return tu_finish("%ld messages (%ld per ordered pair, windows of %d per peer), none lost, "
                     "duplicated or reordered",
                     pairs * rounds * window, (long)rounds * window, window);
}
