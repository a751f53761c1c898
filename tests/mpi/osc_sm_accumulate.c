/* Every predefined operation of MPI_Accumulate under concurrency (components/osc_sm/README.md):
 * all ranks accumulate into the same elements of every rank's window at once, first in a fence
 * epoch, then under shared locks (which order nothing), then under exclusive locks (osc_rdma takes
 * no accumulate lock there: the lock word alone must keep the read-operate-write whole). Integer SUM, PROD, MAX, MIN, LAND, LOR,
 * LXOR, BAND, BOR, BXOR, double SUM, MAX, MIN, PROD, MPI_2INT MAXLOC and MINLOC end exactly at
 * the value of the operation over all contributions (they are associative and commutative); with
 * MPI_REPLACE every element ends as one rank's value, whole (MPI's per-element atomicity). Each
 * rank repeats its accumulates REP times to keep the targets busy. 1-8 ranks; plain MPI-2.2.
 * --static: the window over heap memory, which osc_sm declines: osc_rdma serves it, its lock
 * epochs by read, operation and write back under the target's accumulate lock (its passive target
 * without the target) where every rank is on one node; the int cases (1028 bytes) take its path
 * through the stack, the others (2056 bytes) through the heap, MPI_REPLACE one write. */
#include <string.h>

#include "test_util.h"

#define N 257
#define REP 5

enum kind { K_INT, K_DOUBLE, K_2INT };
struct int2 { int v, loc; };
union elem { int i; double d; struct int2 p; };

struct acc_case {
    const char *name;
    MPI_Op op;
    enum kind kind;
    int rep; /* PROD once: REP factors of 2 per rank would overflow at 8 ranks */
};

static struct acc_case cases[] = {
    {"SUM int", MPI_SUM, K_INT, REP},       {"PROD int", MPI_PROD, K_INT, 1},
    {"MAX int", MPI_MAX, K_INT, REP},       {"MIN int", MPI_MIN, K_INT, REP},
    {"LAND int", MPI_LAND, K_INT, REP},     {"LOR int", MPI_LOR, K_INT, REP},
    {"LXOR int", MPI_LXOR, K_INT, REP},     {"BAND int", MPI_BAND, K_INT, REP},
    {"BOR int", MPI_BOR, K_INT, REP},       {"BXOR int", MPI_BXOR, K_INT, REP},
    {"SUM double", MPI_SUM, K_DOUBLE, REP}, {"PROD double", MPI_PROD, K_DOUBLE, 1},
    {"MAX double", MPI_MAX, K_DOUBLE, REP}, {"MIN double", MPI_MIN, K_DOUBLE, REP},
    {"MAXLOC 2int", MPI_MAXLOC, K_2INT, REP}, {"MINLOC 2int", MPI_MINLOC, K_2INT, REP},
    {"REPLACE int", MPI_REPLACE, K_INT, REP},
};
#define NCASES ((int)(sizeof cases / sizeof cases[0]))

static MPI_Datatype type_of(enum kind k) { return k == K_INT ? MPI_INT : k == K_DOUBLE ? MPI_DOUBLE : MPI_2INT; }

/* What rank r contributes to element i (phase varies it between the two rounds). */
static union elem contribution(const struct acc_case *c, int r, int i, int phase)
{
    union elem e;
    memset(&e, 0, sizeof e);
    const int s = i + 3 * phase;
    if (c->op == MPI_REPLACE) e.i = r * 100000 + s;
    else if (c->op == MPI_PROD && c->kind == K_INT) e.i = (s + r) % 3 == 0 ? 2 : 1;
    else if (c->op == MPI_PROD) e.d = (s + r) % 2 ? 2.0 : 0.5;
    else if (c->op == MPI_LAND || c->op == MPI_LOR || c->op == MPI_LXOR) e.i = (s >> (r % 4)) & 1;
    else if (c->op == MPI_BAND || c->op == MPI_BOR || c->op == MPI_BXOR) e.i = (1 << r) | (s << 8) | ((s * 7 + r) & 0xff);
    else if (c->kind == K_INT) e.i = (s * 37 + r * 101) % 1000 - 500;
    else if (c->kind == K_DOUBLE) e.d = ((s * 37 + r * 101) % 1000) * 0.25 - 100.0;
    else {
        e.p.v = (s * 7 + r * 3) % 5;
        e.p.loc = r;
    }
    return e;
}

static union elem initial(const struct acc_case *c, int i)
{
    union elem e;
    memset(&e, 0, sizeof e);
    if (c->op == MPI_PROD && c->kind == K_INT) e.i = 1;
    else if (c->op == MPI_PROD) e.d = 1.0;
    else if (c->op == MPI_LAND) e.i = 1;
    else if (c->op == MPI_BAND) e.i = ~0;
    else if (c->kind == K_DOUBLE) e.d = (c->op == MPI_SUM) ? 0.0 : (c->op == MPI_MAX ? -1e9 : 1e9);
    else if (c->kind == K_2INT) e.p.v = c->op == MPI_MAXLOC ? -1 : 99, e.p.loc = 1000;
    else if (c->op == MPI_MAX) e.i = -100000;
    else if (c->op == MPI_MIN) e.i = 100000;
    else e.i = (c->op == MPI_SUM) ? i : 0;
    return e;
}

static union elem combine(const struct acc_case *c, union elem a, union elem b)
{
    union elem e = a;
    MPI_Op op = c->op;
    if (c->kind == K_DOUBLE) {
        if (op == MPI_SUM) e.d = a.d + b.d;
        else if (op == MPI_PROD) e.d = a.d * b.d;
        else if (op == MPI_MAX) e.d = a.d > b.d ? a.d : b.d;
        else e.d = a.d < b.d ? a.d : b.d;
    } else if (c->kind == K_2INT) {
        const int better = op == MPI_MAXLOC ? b.p.v > a.p.v : b.p.v < a.p.v;
        if (better) e.p = b.p;
        else if (b.p.v == a.p.v && b.p.loc < a.p.loc) e.p.loc = b.p.loc;
    } else if (op == MPI_SUM) e.i = a.i + b.i;
    else if (op == MPI_PROD) e.i = a.i * b.i;
    else if (op == MPI_MAX) e.i = a.i > b.i ? a.i : b.i;
    else if (op == MPI_MIN) e.i = a.i < b.i ? a.i : b.i;
    else if (op == MPI_LAND) e.i = a.i && b.i;
    else if (op == MPI_LOR) e.i = a.i || b.i;
    else if (op == MPI_LXOR) e.i = !a.i != !b.i;
    else if (op == MPI_BAND) e.i = a.i & b.i;
    else if (op == MPI_BOR) e.i = a.i | b.i;
    else if (op == MPI_BXOR) e.i = a.i ^ b.i;
    return e;
}

static int same(const struct acc_case *c, union elem a, union elem b)
{
    if (c->kind == K_DOUBLE) return a.d == b.d;
    if (c->kind == K_2INT) return a.p.v == b.p.v && a.p.loc == b.p.loc;
    return a.i == b.i;
}

static size_t elem_size(enum kind k) { return k == K_INT ? sizeof(int) : k == K_DOUBLE ? sizeof(double) : sizeof(struct int2); }

/* Case c's region of a window: N elements, 8-byte slots. */
static void *region(void *mem, int c) { return (char *)mem + (size_t)c * N * sizeof(union elem); }

static void set_elem(const struct acc_case *c, void *base, int i, union elem e)
{
    memcpy((char *)base + (size_t)i * elem_size(c->kind), &e, elem_size(c->kind));
}

static union elem get_elem(const struct acc_case *c, const void *base, int i)
{
    union elem e;
    memset(&e, 0, sizeof e);
    memcpy(&e, (const char *)base + (size_t)i * elem_size(c->kind), elem_size(c->kind));
    return e;
}

static void reset(void *mem)
{
    for (int c = 0; c < NCASES; ++c)
        for (int i = 0; i < N; ++i) set_elem(&cases[c], region(mem, c), i, initial(&cases[c], i));
}

/* lock: 0 (a fence epoch is open), MPI_LOCK_SHARED or MPI_LOCK_EXCLUSIVE around each accumulate */
static void accumulate_all(MPI_Win win, int rank, int size, int phase, int lock)
{
    union elem buf[N];
    for (int c = 0; c < NCASES; ++c) {
        const struct acc_case *ac = &cases[c];
        for (int i = 0; i < N; ++i) set_elem(ac, buf, i, contribution(ac, rank, i, phase));
        for (int k = 0; k < ac->rep; ++k)
            for (int d = 0; d < size; ++d) {
                const int t = (rank + d) % size;
                const MPI_Aint disp = (MPI_Aint)((size_t)c * N * sizeof(union elem));
                if (lock) CHECK_MPI(MPI_Win_lock(lock, t, 0, win));
                CHECK_MPI(MPI_Accumulate(buf, N, type_of(ac->kind), t, disp, N, type_of(ac->kind), ac->op, win));
                if (lock) CHECK_MPI(MPI_Win_unlock(t, win));
            }
    }
}

static void verify(void *mem, int size, int phase, const char *how)
{
    for (int c = 0; c < NCASES; ++c) {
        const struct acc_case *ac = &cases[c];
        for (int i = 0; i < N; ++i) {
            const union elem got = get_elem(ac, region(mem, c), i);
            if (ac->op == MPI_REPLACE) {
                const int r = got.i / 100000;
                CHECK(r >= 0 && r < size && got.i == contribution(ac, r, i, phase).i,
                      "%s, %s: element %d is %d, no rank's value", how, ac->name, i, got.i);
                continue;
            }
            union elem want = initial(ac, i);
            for (int r = 0; r < size; ++r)
                for (int k = 0; k < ac->rep; ++k) want = combine(ac, want, contribution(ac, r, i, phase));
            CHECK(same(ac, got, want), "%s, %s: element %d is (%d, %d / %g), expected (%d, %d / %g)", how, ac->name, i,
                  got.p.v, got.p.loc, got.d, want.p.v, want.p.loc, want.d);
        }
    }
}

int main(int argc, char **argv)
{
    int rank, size;
    void *mem = NULL;
    MPI_Win win;
    const size_t bytes = (size_t)NCASES * N * sizeof(union elem);
    tu_init(&argc, &argv);
    tu_require_ranks(1, 8);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const int use_static = argc > 1 && strcmp(argv[1], "--static") == 0;
    if (use_static)
        mem = tu_malloc(bytes);
    else
        CHECK_MPI(MPI_Alloc_mem((MPI_Aint)bytes, MPI_INFO_NULL, &mem));
    reset(mem);
    CHECK_MPI(MPI_Win_create(mem, (MPI_Aint)bytes, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &win));

    CHECK_MPI(MPI_Win_fence(MPI_MODE_NOPRECEDE, win));
    accumulate_all(win, rank, size, 0, 0);
    CHECK_MPI(MPI_Win_fence(MPI_MODE_NOSUCCEED, win));
    verify(mem, size, 0, "fence epoch");

    tu_barrier();
    reset(mem);
    tu_barrier();
    accumulate_all(win, rank, size, 1, MPI_LOCK_SHARED);
    tu_barrier();
    CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rank, 0, win));
    verify(mem, size, 1, "shared-lock epochs");
    CHECK_MPI(MPI_Win_unlock(rank, win));

    tu_barrier();
    CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rank, 0, win));
    reset(mem);
    CHECK_MPI(MPI_Win_unlock(rank, win));
    tu_barrier();
    accumulate_all(win, rank, size, 2, MPI_LOCK_EXCLUSIVE);
    tu_barrier();
    CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rank, 0, win));
    verify(mem, size, 2, "exclusive-lock epochs");
    CHECK_MPI(MPI_Win_unlock(rank, win));

    tu_barrier();
    CHECK_MPI(MPI_Win_free(&win));
    if (use_static)
        free(mem);
    else
        CHECK_MPI(MPI_Free_mem(mem));
    return tu_finish("%d accumulate cases (every predefined op) from every rank into every rank at once, "
                     "in a fence epoch, under shared and under exclusive locks (%s memory)", NCASES, use_static ? "heap" : "MPI_Alloc_mem");
}
