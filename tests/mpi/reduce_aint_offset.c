/* Reductions on MPI_AINT and MPI_OFFSET: MPI_LAND, MPI_LOR and MPI_LXOR (beyond MPI-2.2, which
 * defines them for C integers and logicals only; Open MPI and MPICH accept them and third-party
 * tests rely on it), and the operations MPI-2.2 5.9.2 defines on them (MAX, MIN, SUM, PROD, BAND,
 * BOR, BXOR; they are "Fortran integer" there). Each element has its own pattern of which ranks
 * hold a true (non-zero) value, so that every logical operation gives a different answer
 * somewhere: all true, none, one, two, all but one, and truths only in the upper 32 bits (a
 * kernel that narrows to int would see false). Results of MPI_Allreduce and of MPI_Reduce to the
 * last rank are checked against a sequential computation over the same inputs. */
#include "test_util.h"

#define N 8

/* Element e's input on rank r. */
static long long input(int e, int r, int size)
{
    const long long high = (long long)1 << 40; /* true, and zero in the low 32 bits */
    switch (e) {
    case 0: return r + 1;                              /* all true */
    case 1: return 0;                                  /* none */
    case 2: return r == 0 ? -7 : 0;                    /* one */
    case 3: return r < 2 ? high : 0;                   /* two */
    case 4: return r == size - 1 ? 0 : high * (r + 1); /* all but one */
    case 5: return r % 2 ? high : 0;                   /* every other */
    case 6: return (long long)(r + 3) * 0x10001;       /* arithmetic and bits */
    default: return -(long long)(r + 2) * 5;           /* negatives */
    }
}

/* The reduction of element e over all ranks, computed here in rank order. */
static long long reference(MPI_Op op, int e, int size)
{
    long long acc = input(e, 0, size);
    for (int r = 1; r < size; ++r) {
        const long long x = input(e, r, size);
        if (op == MPI_LAND) acc = acc && x;
        else if (op == MPI_LOR) acc = acc || x;
        else if (op == MPI_LXOR) acc = !acc != !x;
        else if (op == MPI_BAND) acc &= x;
        else if (op == MPI_BOR) acc |= x;
        else if (op == MPI_BXOR) acc ^= x;
        else if (op == MPI_MAX) acc = x > acc ? x : acc;
        else if (op == MPI_MIN) acc = x < acc ? x : acc;
        else if (op == MPI_SUM) acc = (long long)((unsigned long long)acc + (unsigned long long)x); /* wraps */
        else acc = (long long)((unsigned long long)acc * (unsigned long long)x);
    }
    return acc;
}

/* Open MPI 4.1.4 compares MPI_OFFSET as unsigned in MPI_MAX / MPI_MIN (-7 > 0 there); its
 * reference run leaves out those elements with a negative input. */
static int reference_bug(MPI_Op op, MPI_Datatype type, int e)
{
#ifdef OPEN_MPI
    if (type == MPI_OFFSET && (op == MPI_MAX || op == MPI_MIN))
        for (int r = 0; r < tu_size; ++r)
            if (input(e, r, tu_size) < 0) return 1;
#else
    (void)op, (void)type, (void)e;
#endif
    return 0;
}

static const MPI_Op ops[] = {MPI_LAND, MPI_LOR, MPI_LXOR, MPI_BAND, MPI_BOR,
                             MPI_BXOR, MPI_MAX, MPI_MIN,  MPI_SUM,  MPI_PROD};
static const char *const op_names[] = {"MPI_LAND", "MPI_LOR", "MPI_LXOR", "MPI_BAND", "MPI_BOR",
                                       "MPI_BXOR", "MPI_MAX",  "MPI_MIN",  "MPI_SUM",  "MPI_PROD"};

/* One type: T is MPI_Aint or MPI_Offset. */
#define REDUCE_ALL(T, type, type_name)                                                            \
    do {                                                                                          \
        for (size_t o = 0; o < sizeof ops / sizeof ops[0]; ++o) {                                 \
            T in[N], all[N], root[N];                                                             \
            for (int e = 0; e < N; ++e) {                                                         \
                in[e] = (T)input(e, tu_rank, tu_size);                                            \
                all[e] = root[e] = (T)-99;                                                        \
            }                                                                                     \
            CHECK_MPI(MPI_Allreduce(in, all, N, type, ops[o], MPI_COMM_WORLD));                   \
            CHECK_MPI(MPI_Reduce(in, root, N, type, ops[o], tu_size - 1, MPI_COMM_WORLD));       \
            for (int e = 0; e < N; ++e) {                                                         \
                if (reference_bug(ops[o], type, e)) continue;                                     \
                const long long want = (long long)(T)reference(ops[o], e, tu_size);               \
                CHECK(all[e] == (T)want, "MPI_Allreduce %s on %s, element %d: got %lld, expected %lld", \
                      op_names[o], type_name, e, (long long)all[e], want);                        \
                CHECK(tu_rank != tu_size - 1 || root[e] == (T)want,                               \
                      "MPI_Reduce %s on %s, element %d: got %lld, expected %lld", op_names[o],    \
                      type_name, e, (long long)root[e], want);                                    \
            }                                                                                     \
        }                                                                                         \
    } while (0)

int main(int argc, char **argv)
{
    tu_init(&argc, &argv);
    tu_require_ranks(2, 8);
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    REDUCE_ALL(MPI_Aint, MPI_AINT, "MPI_AINT");
    REDUCE_ALL(MPI_Offset, MPI_OFFSET, "MPI_OFFSET");
    return tu_finish("LAND, LOR, LXOR, BAND, BOR, BXOR, MAX, MIN, SUM, PROD on MPI_AINT and MPI_OFFSET "
                     "(Allreduce, Reduce)");
}
