/* Truncation under MPI_ERRORS_RETURN: rank 0 sends a message M1 and then M2 to rank 1, which
 * receives M1 into a buffer half its size. The receive must fail with an error of class
 * MPI_ERR_TRUNCATE, write nothing beyond its buffer (guard bytes), leave the sender unaware
 * (its sends succeed), and M2 must then arrive intact: the rest of M1 was drained. For message
 * sizes from 1 B (into 0 B) to 4 MiB, eager and rendezvous, received as:
 *   recv:     Recv(0, ANY_TAG) of a message that may be waiting already;
 *   wait:     Irecv + Wait;
 *   waitall:  Irecv of M1 and M2 + Waitall: MPI_ERR_IN_STATUS, M1's status has MPI_ERR_TRUNCATE
 *             and M2's MPI_SUCCESS (or MPI_ERR_PENDING: then a Wait completes it);
 *   posted:   Irecv posted before M1 is sent (rank 1 tells rank 0 when), then Wait. */
#include "test_util.h"

enum { V_RECV, V_WAIT, V_WAITALL, V_POSTED, V_COUNT };
static const char *const variant_names[V_COUNT] = {"Recv", "Irecv+Wait", "Irecv+Waitall",
                                                   "Irecv posted before the send"};
enum { TAG_READY = 999 };

static const size_t sizes[] = {1, 100, 4097, 65537, ((size_t)1 << 20) + 3, (size_t)4 << 20};
#define NSIZES (sizeof sizes / sizeof sizes[0])

static int tag_of(int variant, int msg) { return 10 * variant + msg; }

static void sender(size_t size, int variant, unsigned char *m1, unsigned char *m2)
{
    MPI_Request req[2];
    CHECK_MPI(MPI_Recv(NULL, 0, MPI_BYTE, 1, TAG_READY, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    tu_fill(m1, size, tu_seed(0, 1, size, tag_of(variant, 1)));
    tu_fill(m2, size, tu_seed(0, 1, size, tag_of(variant, 2)));
    CHECK_MPI(MPI_Isend(m1, (int)size, MPI_BYTE, 1, tag_of(variant, 1), MPI_COMM_WORLD, &req[0]));
    CHECK_MPI(MPI_Isend(m2, (int)size, MPI_BYTE, 1, tag_of(variant, 2), MPI_COMM_WORLD, &req[1]));
    CHECK_MPI(MPI_Waitall(2, req, MPI_STATUSES_IGNORE));
}

static void receive_m2(unsigned char *buf, size_t size, int variant)
{
    MPI_Status st;
    memset(buf, 0xee, size);
    CHECK_MPI(MPI_Recv(buf, (int)size, MPI_BYTE, 0, tag_of(variant, 2), MPI_COMM_WORLD, &st));
    CHECK_STATUS(&st, 0, tag_of(variant, 2), size);
    VERIFY(buf, size, tu_seed(0, 1, size, tag_of(variant, 2)),
           "the message after a truncated one");
}

static void receiver(size_t size, int variant, unsigned char *small, unsigned char *m2)
{
    size_t cap = size / 2;
    int n = (int)cap, tag = tag_of(variant, 1);
    MPI_Request req[2];
    MPI_Status st[2];
    char what[128];
    snprintf(what, sizeof what, "%s of %zu bytes into %zu", variant_names[variant], size, cap);
    memset(small, 0xee, cap);
    memset(small + cap, TU_GUARD_BYTE, TU_GUARD_SIZE);

    if (variant == V_POSTED)
        CHECK_MPI(MPI_Irecv(small, n, MPI_BYTE, 0, tag, MPI_COMM_WORLD, &req[0]));
    CHECK_MPI(MPI_Send(NULL, 0, MPI_BYTE, 0, TAG_READY, MPI_COMM_WORLD));
    switch (variant) {
    case V_RECV:
        CHECK_CLASS(MPI_Recv(small, n, MPI_BYTE, 0, MPI_ANY_TAG, MPI_COMM_WORLD, &st[0]),
                    MPI_ERR_TRUNCATE);
        break;
    case V_WAIT:
        CHECK_MPI(MPI_Irecv(small, n, MPI_BYTE, 0, tag, MPI_COMM_WORLD, &req[0]));
        CHECK_CLASS(MPI_Wait(&req[0], &st[0]), MPI_ERR_TRUNCATE);
        break;
    case V_POSTED:
        CHECK_CLASS(MPI_Wait(&req[0], &st[0]), MPI_ERR_TRUNCATE);
        break;
    case V_WAITALL:
        memset(m2, 0xee, size);
        CHECK_MPI(MPI_Irecv(small, n, MPI_BYTE, 0, tag, MPI_COMM_WORLD, &req[0]));
        CHECK_MPI(MPI_Irecv(m2, (int)size, MPI_BYTE, 0, tag_of(variant, 2), MPI_COMM_WORLD,
                            &req[1]));
        st[0].MPI_ERROR = st[1].MPI_ERROR = -777;
        CHECK_CLASS(MPI_Waitall(2, req, st), MPI_ERR_IN_STATUS);
        CHECK(tu_error_class(st[0].MPI_ERROR) == MPI_ERR_TRUNCATE,
              "%s: MPI_ERROR of the truncated receive is %d (class %d), expected class "
              "MPI_ERR_TRUNCATE (%d)",
              what, st[0].MPI_ERROR, tu_error_class(st[0].MPI_ERROR), MPI_ERR_TRUNCATE);
        /* MPI_ERR_PENDING: Waitall may stop at the failed request, leaving this one active */
        CHECK(st[1].MPI_ERROR == MPI_SUCCESS || st[1].MPI_ERROR == MPI_ERR_PENDING,
              "%s: MPI_ERROR of the receive after it is %d, expected MPI_SUCCESS or "
              "MPI_ERR_PENDING",
              what, st[1].MPI_ERROR);
        if (st[1].MPI_ERROR == MPI_ERR_PENDING)
            CHECK_MPI(MPI_Wait(&req[1], &st[1]));
        CHECK_STATUS(&st[1], 0, tag_of(variant, 2), size);
        VERIFY(m2, size, tu_seed(0, 1, size, tag_of(variant, 2)),
               "the message after a truncated one (Waitall)");
        break;
    }
    CHECK_GUARD(small + cap, TU_GUARD_SIZE, what);
    if (variant != V_WAITALL)
        receive_m2(m2, size, variant);
}

int main(int argc, char **argv)
{
    tu_init(&argc, &argv);
    tu_require_ranks(2, 0);
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    size_t max = sizes[NSIZES - 1];
    unsigned char *a = tu_malloc(max + TU_GUARD_SIZE), *b = tu_malloc(max);
    if (tu_rank < 2)
        for (size_t i = 0; i < NSIZES; ++i)
            for (int v = 0; v < V_COUNT; ++v) {
                if (tu_rank == 0)
                    sender(sizes[i], v, a, b);
                else
                    receiver(sizes[i], v, a, b);
            }
    free(a);
    free(b);
    return tu_finish("%zu sizes from %zu B to %zu B, 4 ways: MPI_ERR_TRUNCATE, nothing written "
                     "past the buffer, the next message intact",
                     NSIZES, sizes[0], max);
}
