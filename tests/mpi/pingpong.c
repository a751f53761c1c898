/* Ping-pong between pairs of ranks (0-1, 2-3, ...) at every size from 0 B to 16 MiB, across
 * every protocol threshold, in four ways: Send/Recv, Isend/Irecv (pre-posted, completed by
 * Waitall and by a Test loop), a simultaneous Sendrecv exchange and Sendrecv_replace. Every byte
 * is verified in both directions, the status of every receive is checked, and guard bytes after
 * the receive buffer must survive. Options: --max-size N (default 16 MiB). */
#include "test_util.h"

enum { MODE_BLOCKING, MODE_NONBLOCKING, MODE_SENDRECV, MODE_REPLACE, MODE_COUNT };
static const char *const mode_names[MODE_COUNT] = {"Send/Recv", "Isend/Irecv", "Sendrecv",
                                                   "Sendrecv_replace"};

struct buffers {
    unsigned char *send, *recv; /* recv has TU_GUARD_SIZE guard bytes after max */
    size_t max;
};

/* Poisons the receive buffer so nothing left from an earlier size can pass for new data. */
static void prepare_recv(struct buffers *b, size_t size)
{
    memset(b->recv, 0xee, size);
    memset(b->recv + size, TU_GUARD_BYTE, TU_GUARD_SIZE);
}

static void check_received(struct buffers *b, size_t size, int from, int tag, MPI_Status *st,
                           long iter, const char *what)
{
    CHECK_STATUS(st, from, tag, size);
    VERIFY(b->recv, size, tu_seed(from, tu_rank, size, iter), what);
    CHECK_GUARD(b->recv + size, TU_GUARD_SIZE, what);
}

/* The rank that starts the exchange (the even one of the pair). */
static void ping(struct buffers *b, size_t size, int peer, int mode)
{
    int tag = mode * 1000 + 1;
    MPI_Status st;
    char what[96];
    snprintf(what, sizeof what, "%s reply of %zu bytes from rank %d", mode_names[mode], size, peer);
    tu_fill(b->send, size, tu_seed(tu_rank, peer, size, mode));
    prepare_recv(b, size);
    if (mode == MODE_BLOCKING) {
        MPI_Send(b->send, (int)size, MPI_BYTE, peer, tag, MPI_COMM_WORLD);
        MPI_Recv(b->recv, (int)size, MPI_BYTE, peer, tag + 1, MPI_COMM_WORLD, &st);
    } else {
        MPI_Request req[2];
        MPI_Status sts[2];
        MPI_Irecv(b->recv, (int)size, MPI_BYTE, peer, tag + 1, MPI_COMM_WORLD, &req[0]);
        MPI_Isend(b->send, (int)size, MPI_BYTE, peer, tag, MPI_COMM_WORLD, &req[1]);
        MPI_Waitall(2, req, sts);
        CHECK(req[0] == MPI_REQUEST_NULL && req[1] == MPI_REQUEST_NULL,
              "Waitall left a request that is not MPI_REQUEST_NULL");
        st = sts[0];
    }
    check_received(b, size, peer, tag + 1, &st, mode, what);
}

/* The rank that answers (the odd one of the pair). */
static void pong(struct buffers *b, size_t size, int peer, int mode)
{
    int tag = mode * 1000 + 1;
    MPI_Status st;
    char what[96];
    snprintf(what, sizeof what, "%s message of %zu bytes from rank %d", mode_names[mode], size,
             peer);
    prepare_recv(b, size);
    if (mode == MODE_BLOCKING) {
        MPI_Recv(b->recv, (int)size, MPI_BYTE, peer, tag, MPI_COMM_WORLD, &st);
    } else {
        MPI_Request req;
        MPI_Irecv(b->recv, (int)size, MPI_BYTE, peer, tag, MPI_COMM_WORLD, &req);
        TU_TEST_UNTIL_DONE(&req, &st, what);
        CHECK(req == MPI_REQUEST_NULL, "MPI_Test completed a request but left it non-null");
    }
    check_received(b, size, peer, tag, &st, mode, what);
    tu_fill(b->send, size, tu_seed(tu_rank, peer, size, mode));
    if (mode == MODE_BLOCKING) {
        MPI_Send(b->send, (int)size, MPI_BYTE, peer, tag + 1, MPI_COMM_WORLD);
    } else {
        MPI_Request req;
        MPI_Isend(b->send, (int)size, MPI_BYTE, peer, tag + 1, MPI_COMM_WORLD, &req);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
    }
}

/* Both ranks send and receive at once. */
static void exchange(struct buffers *b, size_t size, int peer, int mode)
{
    int tag = mode * 1000 + 1;
    MPI_Status st;
    char what[96];
    snprintf(what, sizeof what, "%s of %zu bytes from rank %d", mode_names[mode], size, peer);
    if (mode == MODE_SENDRECV) {
        tu_fill(b->send, size, tu_seed(tu_rank, peer, size, mode));
        prepare_recv(b, size);
        MPI_Sendrecv(b->send, (int)size, MPI_BYTE, peer, tag, b->recv, (int)size, MPI_BYTE, peer,
                     tag, MPI_COMM_WORLD, &st);
    } else {
        prepare_recv(b, size);
        tu_fill(b->recv, size, tu_seed(tu_rank, peer, size, mode));
        MPI_Sendrecv_replace(b->recv, (int)size, MPI_BYTE, peer, tag, peer, tag, MPI_COMM_WORLD,
                             &st);
    }
    check_received(b, size, peer, tag, &st, mode, what);
}

int main(int argc, char **argv)
{
    tu_init(&argc, &argv);
    tu_require_ranks(2, 0);
    size_t max = tu_option_size(argc, argv, "--max-size", TU_MAX_MESSAGE);
    size_t sizes[TU_MAX_SIZES];
    int nsizes = tu_sizes(sizes, max);

    struct buffers b = {tu_malloc(max), tu_malloc(max + TU_GUARD_SIZE), max};
    int peer = tu_rank ^ 1;
    if (peer < tu_size) {
        for (int i = 0; i < nsizes; ++i)
            for (int mode = 0; mode < MODE_COUNT; ++mode) {
                if (mode == MODE_SENDRECV || mode == MODE_REPLACE)
                    exchange(&b, sizes[i], peer, mode);
                else if (tu_rank % 2 == 0)
                    ping(&b, sizes[i], peer, mode);
                else
                    pong(&b, sizes[i], peer, mode);
            }
    }
    free(b.send);
    free(b.recv);
    return tu_finish("%d sizes from 0 to %zu B, 4 ways (Send/Recv, Isend/Irecv, Sendrecv, "
                     "Sendrecv_replace), both directions verified",
                     nsizes, sizes[nsizes - 1]);
}
