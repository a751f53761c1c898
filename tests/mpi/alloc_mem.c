/* MPI_Alloc_mem and MPI_Free_mem: memory they give carries messages byte for byte around a ring
 * (0 B to 32 MiB, eager, rendezvous and single-copy sizes, send and receive buffers both from
 * Alloc_mem); 3000 allocations of mixed sizes stay apart and are freed in mixed order; size 0
 * works and MPI_Free_mem(NULL) does nothing; an info with keys is accepted. Under Plexus also:
 * the alignment info key is honoured, and each misuse fails with its class and a message naming
 * what was wrong (negative size and an invalid info are refused as in Open MPI and MPICH; a size
 * beyond the machine, a pointer not from MPI_Alloc_mem, one inside an allocation and a second
 * free are Plexus's checks: Open MPI aborts on some, MPICH returns success). */
#include "test_util.h"

static const size_t ring_sizes[] = {0, 1, 63, 64, 4095, 4096, 65537, (1u << 20) + 3, 32u << 20};
#define MANY 3000

static void *alloc_or_fail(size_t n, MPI_Info info)
{
    void *p = NULL;
    CHECK_MPI(MPI_Alloc_mem((MPI_Aint)n, info, &p));
    CHECK(p != NULL || n == 0, "MPI_Alloc_mem(%zu) gave NULL", n);
    return p;
}

static void ring_through_allocated_memory(void)
{
    const int right = (tu_rank + 1) % tu_size, left = (tu_rank - 1 + tu_size) % tu_size;
    for (size_t i = 0; i < sizeof ring_sizes / sizeof ring_sizes[0]; ++i) {
        const size_t n = ring_sizes[i];
        unsigned char *out = alloc_or_fail(n, MPI_INFO_NULL), *in = alloc_or_fail(n, MPI_INFO_NULL);
        tu_fill(out, n, tu_seed(tu_rank, right, n, 0));
        MPI_Status st;
        CHECK_MPI(MPI_Sendrecv(out, (int)n, MPI_BYTE, right, 1, in, (int)n, MPI_BYTE, left, 1, MPI_COMM_WORLD, &st));
        CHECK_STATUS(&st, left, 1, n);
        VERIFY(in, n, tu_seed(left, tu_rank, n, 0), "ring message received into MPI_Alloc_mem memory");
        CHECK_MPI(MPI_Free_mem(out));
        CHECK_MPI(MPI_Free_mem(in));
    }
}

static size_t many_size(int i) { return (size_t)(i * 37 % 2000) + (i % 7 == 0 ? 70000 : 0); }

static void many_allocations(void)
{
    static unsigned char *p[MANY];
    for (int i = 0; i < MANY; ++i) {
        p[i] = alloc_or_fail(many_size(i), MPI_INFO_NULL);
        tu_fill(p[i], many_size(i), tu_seed(tu_rank, i, many_size(i), 1));
    }
    for (int i = 0; i < MANY; ++i)
        VERIFY(p[i], many_size(i), tu_seed(tu_rank, i, many_size(i), 1), "one of 3000 live allocations");
    for (int i = 0; i < MANY; i += 2) CHECK_MPI(MPI_Free_mem(p[i]));
    for (int i = MANY - 1; i > 0; i -= 2) {
        VERIFY(p[i], many_size(i), tu_seed(tu_rank, i, many_size(i), 1), "an allocation after its neighbours were freed");
        CHECK_MPI(MPI_Free_mem(p[i]));
    }
}

static void size_zero_and_null(void)
{
    void *a = (void *)&a, *b = (void *)&b;
    CHECK_MPI(MPI_Alloc_mem(0, MPI_INFO_NULL, &a));
    CHECK_MPI(MPI_Alloc_mem(0, MPI_INFO_NULL, &b));
    CHECK(a != (void *)&a && b != (void *)&b, "MPI_Alloc_mem(0) did not set baseptr");
#ifdef PLEXUS_MPI
    CHECK(a != NULL && a != b, "MPI_Alloc_mem(0) gave %p and %p: expected two unique pointers", a, b);
#endif
    CHECK_MPI(MPI_Free_mem(a));
    CHECK_MPI(MPI_Free_mem(b));
    CHECK_MPI(MPI_Free_mem(NULL));
}

static void info_keys(void)
{
    MPI_Info info;
    CHECK_MPI(MPI_Info_create(&info));
    CHECK_MPI(MPI_Info_set(info, "some_key_nobody_knows", "yes"));
    CHECK_MPI(MPI_Info_set(info, "mpi_minimum_memory_alignment", "65536"));
    unsigned char *p = alloc_or_fail(1000, info);
#ifdef PLEXUS_MPI
    CHECK((uintptr_t)p % 65536 == 0, "alignment 65536 asked, got %p", (void *)p);
#endif
    tu_fill(p, 1000, 7);
    VERIFY(p, 1000, 7, "memory allocated with an info");
    CHECK_MPI(MPI_Free_mem(p));
    CHECK_MPI(MPI_Info_free(&info));
}

/* The call failed with class want and its message has text in it. */
#define CHECK_ERROR(call, want, text)                                                             \
    do {                                                                                          \
        int rc_ = (call);                                                                         \
        char msg_[MPI_MAX_ERROR_STRING];                                                          \
        CHECK(tu_error_class(rc_) == (want), "%s gave class %d, expected %d", #call,               \
              tu_error_class(rc_), (want));                                                       \
        tu_error_text(rc_, msg_);                                                                 \
        CHECK(strstr(msg_, (text)) != NULL, "%s: message '%s' does not say '%s'", #call, msg_,    \
              (text));                                                                            \
    } while (0)

static void misuse(void)
{
    void *p = NULL;
    int rc = MPI_Alloc_mem(-1, MPI_INFO_NULL, &p);
    CHECK_EQ(tu_error_class(rc), MPI_ERR_ARG);
#ifdef PLEXUS_MPI
    CHECK_ERROR(MPI_Alloc_mem(-1, MPI_INFO_NULL, &p), MPI_ERR_ARG, "invalid size -1");
    long junk[8] = {0};
    CHECK_ERROR(MPI_Alloc_mem(8, (MPI_Info)(void *)junk, &p), MPI_ERR_INFO, "invalid info");
    MPI_Info info;
    CHECK_MPI(MPI_Info_create(&info));
    CHECK_MPI(MPI_Info_set(info, "mpi_minimum_memory_alignment", "48"));
    CHECK_ERROR(MPI_Alloc_mem(8, info, &p), MPI_ERR_INFO_VALUE, "a power of two");
    CHECK_MPI(MPI_Info_free(&info));
    CHECK_ERROR(MPI_Alloc_mem((MPI_Aint)1 << 62, MPI_INFO_NULL, &p), MPI_ERR_NO_MEM, "memory and swap");
    int local = 0;
    CHECK_ERROR(MPI_Free_mem(&local), MPI_ERR_ARG, "not returned by MPI_Alloc_mem");
    char *mem = alloc_or_fail(100, MPI_INFO_NULL);
    CHECK_ERROR(MPI_Free_mem(mem + 8), MPI_ERR_ARG, "8 bytes into an allocation of 100 bytes");
    CHECK_MPI(MPI_Free_mem(mem));
    CHECK_ERROR(MPI_Free_mem(mem), MPI_ERR_ARG, "freed already");
#endif
}

int main(int argc, char **argv)
{
    tu_init(&argc, &argv);
    tu_require_ranks(2, 8);
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    ring_through_allocated_memory();
    many_allocations();
    size_zero_and_null();
    info_keys();
    misuse();
    ring_through_allocated_memory(); /* still works after the errors */
    return tu_finish("ring 0 B - 32 MiB in MPI_Alloc_mem memory, %d allocations, size 0, NULL, info, errors", MANY);
}
