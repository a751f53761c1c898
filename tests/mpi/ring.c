/* A ring of all ranks at every size from 0 B to 16 MiB. Per size, first every rank sends to both
 * neighbours at once and receives from both (Isend/Irecv + Waitall: every link carries a
 * message each way at once), then a token travels once around the ring, each rank receiving
 * it, verifying it and passing the same buffer on. Every byte is verified at every hop.
 * Options: --max-size N (default 16 MiB). */
#include "test_util.h"

enum { TAG_RIGHTWARD = 1, TAG_LEFTWARD = 2, TAG_TOKEN = 3 };

struct buffers {
    unsigned char *to_right, *to_left, *from_left, *from_right;
};

static void shift_both_ways(struct buffers *b, size_t size, int left, int right)
{
    MPI_Request req[4];
    MPI_Status st[4];
    int n = (int)size;
    memset(b->from_left, 0xee, size);
    memset(b->from_right, 0xee, size);
    tu_fill(b->to_right, size, tu_seed(tu_rank, right, size, TAG_RIGHTWARD));
    tu_fill(b->to_left, size, tu_seed(tu_rank, left, size, TAG_LEFTWARD));
    MPI_Irecv(b->from_left, n, MPI_BYTE, left, TAG_RIGHTWARD, MPI_COMM_WORLD, &req[0]);
    MPI_Irecv(b->from_right, n, MPI_BYTE, right, TAG_LEFTWARD, MPI_COMM_WORLD, &req[1]);
    MPI_Isend(b->to_right, n, MPI_BYTE, right, TAG_RIGHTWARD, MPI_COMM_WORLD, &req[2]);
    MPI_Isend(b->to_left, n, MPI_BYTE, left, TAG_LEFTWARD, MPI_COMM_WORLD, &req[3]);
    MPI_Waitall(4, req, st);
    for (int i = 0; i < 4; ++i)
        CHECK(req[i] == MPI_REQUEST_NULL, "Waitall left request %d non-null", i);

    char what[96];
    CHECK_STATUS(&st[0], left, TAG_RIGHTWARD, size);
    snprintf(what, sizeof what, "%zu bytes from the left neighbour %d", size, left);
    VERIFY(b->from_left, size, tu_seed(left, tu_rank, size, TAG_RIGHTWARD), what);
    CHECK_STATUS(&st[1], right, TAG_LEFTWARD, size);
    snprintf(what, sizeof what, "%zu bytes from the right neighbour %d", size, right);
    VERIFY(b->from_right, size, tu_seed(right, tu_rank, size, TAG_LEFTWARD), what);
}

/* The token is always the same data (seeded as from rank 0 to itself), forwarded unchanged. */
static void token_round(struct buffers *b, size_t size, int left, int right)
{
    uint64_t seed = tu_seed(0, 0, size, TAG_TOKEN);
    int n = (int)size;
    MPI_Status st;
    MPI_Request req;
    char what[96];
    snprintf(what, sizeof what, "token of %zu bytes from rank %d", size, left);
    memset(b->from_left, 0xee, size);
    if (tu_rank == 0) {
        tu_fill(b->to_right, size, seed);
        MPI_Isend(b->to_right, n, MPI_BYTE, right, TAG_TOKEN, MPI_COMM_WORLD, &req);
        MPI_Recv(b->from_left, n, MPI_BYTE, left, TAG_TOKEN, MPI_COMM_WORLD, &st);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
    } else {
        MPI_Irecv(b->from_left, n, MPI_BYTE, left, TAG_TOKEN, MPI_COMM_WORLD, &req);
        MPI_Wait(&req, &st);
    }
    CHECK_STATUS(&st, left, TAG_TOKEN, size);
    VERIFY(b->from_left, size, seed, what);
    if (tu_rank != 0)
        MPI_Send(b->from_left, n, MPI_BYTE, right, TAG_TOKEN, MPI_COMM_WORLD);
}

int main(int argc, char **argv)
{
    tu_init(&argc, &argv);
    tu_require_ranks(2, 0);
    size_t max = tu_option_size(argc, argv, "--max-size", TU_MAX_MESSAGE);
    size_t sizes[TU_MAX_SIZES];
    int nsizes = tu_sizes(sizes, max);
    struct buffers b = {tu_malloc(max), tu_malloc(max), tu_malloc(max), tu_malloc(max)};
    int left = (tu_rank + tu_size - 1) % tu_size;
    int right = (tu_rank + 1) % tu_size;

    for (int i = 0; i < nsizes; ++i) {
        shift_both_ways(&b, sizes[i], left, right);
        token_round(&b, sizes[i], left, right);
    }
    free(b.to_right);
    free(b.to_left);
    free(b.from_left);
    free(b.from_right);
    return tu_finish("%d sizes from 0 to %zu B: shifted both ways and passed once around the "
                     "ring, every hop verified",
                     nsizes, sizes[nsizes - 1]);
}
