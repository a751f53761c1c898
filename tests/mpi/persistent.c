/* Persistent requests between ranks 0 and 1 (other ranks idle): Send_init/Recv_init for five
 * sizes (0 B to 256 KiB + 1, eager and rendezvous), each request started 100 times (and a 2 MiB
 * pair 20 times), with fresh data every iteration, verified each time:
 *   rank 0: Startall(receives), Startall(sends), Waitall of all;
 *   rank 1: Start of each receive, Wait of each in reverse order, then Start and a Test loop
 *           for each reply; its receives alternate between Recv_init(0, tag), (0, ANY_TAG) and
 *           (ANY_SOURCE, tag).
 * Completed persistent requests stay allocated (never MPI_REQUEST_NULL); Wait and Test of an
 * inactive one return at once with an empty status; Request_free releases them. */
#include "test_util.h"

static const size_t sizes[] = {0, 64, 4097, 65537, 262145};
#define NSIZES ((int)(sizeof sizes / sizeof sizes[0]))
#define ITERATIONS 100
#define BIG ((size_t)2 << 20)
#define BIG_ITERATIONS 20

struct channel {
    int n;
    size_t size[NSIZES + 1];
    unsigned char *out[NSIZES + 1], *in[NSIZES + 1];
    MPI_Request send[NSIZES + 1], recv[NSIZES + 1];
};

static int tag_of(int i) { return 10 + i; }

static void check_still_allocated(const MPI_Request *req, int n, const char *what)
{
    for (int i = 0; i < n; ++i)
        CHECK(req[i] != MPI_REQUEST_NULL,
              "%s: persistent request %d became MPI_REQUEST_NULL on completion", what, i);
}

static void verify_in(struct channel *c, int i, const MPI_Status *st, int peer, long iter)
{
    char what[96];
    snprintf(what, sizeof what, "iteration %ld, %zu bytes from rank %d", iter, c->size[i], peer);
    CHECK_STATUS(st, peer, tag_of(i), c->size[i]);
    VERIFY(c->in[i], c->size[i], tu_seed(peer, tu_rank, c->size[i], iter), what);
}

static void rank0_iteration(struct channel *c, long iter)
{
    MPI_Request all[2 * (NSIZES + 1)];
    MPI_Status st[2 * (NSIZES + 1)];
    for (int i = 0; i < c->n; ++i) {
        memset(c->in[i], 0xee, c->size[i]);
        tu_fill(c->out[i], c->size[i], tu_seed(0, 1, c->size[i], iter));
    }
    MPI_Startall(c->n, c->recv);
    MPI_Startall(c->n, c->send);
    memcpy(all, c->recv, sizeof(MPI_Request) * (size_t)c->n);
    memcpy(all + c->n, c->send, sizeof(MPI_Request) * (size_t)c->n);
    MPI_Waitall(2 * c->n, all, st);
    check_still_allocated(all, 2 * c->n, "Waitall");
    for (int i = 0; i < c->n; ++i)
        verify_in(c, i, &st[i], 1, iter);
}

static void rank1_iteration(struct channel *c, long iter)
{
    for (int i = 0; i < c->n; ++i) {
        memset(c->in[i], 0xee, c->size[i]);
        MPI_Start(&c->recv[i]);
    }
    for (int i = c->n - 1; i >= 0; --i) {
        MPI_Status st;
        MPI_Wait(&c->recv[i], &st);
        check_still_allocated(&c->recv[i], 1, "Wait");
        verify_in(c, i, &st, 0, iter);
    }
    for (int i = 0; i < c->n; ++i) {
        MPI_Status st;
        tu_fill(c->out[i], c->size[i], tu_seed(1, 0, c->size[i], iter));
        MPI_Start(&c->send[i]);
        TU_TEST_UNTIL_DONE(&c->send[i], &st, "persistent send");
        check_still_allocated(&c->send[i], 1, "Test");
    }
}

/* Wait, Test and Waitall of requests that are not active return an empty status at once. */
static void check_inactive(struct channel *c)
{
    MPI_Status st;
    int flag = 0;
    tu_poison_status(&st);
    MPI_Wait(&c->recv[0], &st);
    CHECK_EMPTY_STATUS(&st, "Wait of an inactive persistent receive");
    tu_poison_status(&st);
    MPI_Test(&c->send[0], &flag, &st);
    CHECK(flag, "Test of an inactive persistent send says it is not complete");
    CHECK_EMPTY_STATUS(&st, "Test of an inactive persistent send");
    MPI_Status sts[NSIZES + 1];
    for (int i = 0; i < c->n; ++i)
        tu_poison_status(&sts[i]);
    MPI_Waitall(c->n, c->recv, sts);
    for (int i = 0; i < c->n; ++i)
        CHECK_EMPTY_STATUS(&sts[i], "Waitall of inactive persistent receives");
    check_still_allocated(c->recv, c->n, "Wait of an inactive request");
}

static void run(struct channel *c, int iterations, long first_iter)
{
    for (long it = first_iter; it < first_iter + iterations; ++it) {
        if (tu_rank == 0)
            rank0_iteration(c, it);
        else
            rank1_iteration(c, it);
    }
    check_inactive(c);
}

static void setup(struct channel *c, const size_t *szs, int n, int first_index)
{
    int peer = 1 - tu_rank;
    c->n = n;
    for (int k = 0; k < n; ++k) {
        int i = first_index + k;
        c->size[k] = szs[k];
        c->out[k] = tu_malloc(szs[k]);
        c->in[k] = tu_malloc(szs[k]);
        MPI_Send_init(c->out[k], (int)szs[k], MPI_BYTE, peer, tag_of(k), MPI_COMM_WORLD,
                      &c->send[k]);
        int src = peer, tag = tag_of(k);
        if (tu_rank == 1 && i % 3 == 1)
            tag = MPI_ANY_TAG;
        else if (tu_rank == 1 && i % 3 == 2)
            src = MPI_ANY_SOURCE;
        MPI_Recv_init(c->in[k], (int)szs[k], MPI_BYTE, src, tag, MPI_COMM_WORLD, &c->recv[k]);
    }
}

static void teardown(struct channel *c)
{
    for (int k = 0; k < c->n; ++k) {
        MPI_Request_free(&c->send[k]);
        MPI_Request_free(&c->recv[k]);
        CHECK(c->send[k] == MPI_REQUEST_NULL && c->recv[k] == MPI_REQUEST_NULL,
              "Request_free of a persistent request did not set it to MPI_REQUEST_NULL");
        free(c->out[k]);
        free(c->in[k]);
    }
}

int main(int argc, char **argv)
{
    tu_init(&argc, &argv);
    tu_require_ranks(2, 0);
    if (tu_rank < 2) {
        struct channel c;
        setup(&c, sizes, NSIZES, 0);
        run(&c, ITERATIONS, 0);
        teardown(&c);
        static const size_t big[] = {BIG};
        setup(&c, big, 1, 2); /* rank 1 receives it with ANY_SOURCE */
        run(&c, BIG_ITERATIONS, 1000);
        teardown(&c);
    }
    return tu_finish("%d persistent send/receive pairs (0 B to %zu B) started %d times, one of "
                     "%zu B %d times, data verified every time; inactive requests give empty "
                     "statuses",
                     NSIZES, sizes[NSIZES - 1], ITERATIONS, BIG, BIG_ITERATIONS);
}
