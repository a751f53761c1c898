/* Receives into derived datatypes that the message does not fill exactly, 2 ranks:
 *  - truncation: a message longer than count items of a derived type (eager, and >= 1 MiB for
 *    rendezvous) fails with MPI_ERR_TRUNCATE under MPI_ERRORS_RETURN; nothing is written
 *    outside the type map (guard bytes in every hole, before and after the buffer stay); what
 *    was written is a prefix of the message in type-map order; the next message arrives intact;
 *  - partial receives: a message shorter than the receive type: the delivered bytes fill the
 *    type map from its start, the rest keeps its guard bytes; Get_count is MPI_UNDEFINED when
 *    the data ends inside an item, Get_elements counts the basic elements received (MPI-2.2
 *    3.2.5, 4.1.11), in a vector, a struct of mixed types and a nested type.
 * Messages are sent with the receive type's signature (ints, or char/double/short packed), so
 * the programs are correct MPI (type matching), not only on homogeneous machines. */
#include "datatype_model.h"

static int checks;

/* vector(count 4, block 3, stride 5) of int: 12 ints with holes. */
static void vector_int(MPI_Datatype *t, dm_model *m)
{
    dm_model mi = dm_basic(sizeof(int));
    CHECK_MPI(MPI_Type_vector(4, 3, 5, MPI_INT, t));
    CHECK_MPI(MPI_Type_commit(t));
    *m = dm_vector(4, 3, 5, &mi);
    dm_free(&mi);
}

/* A message is nelem basic elements of a signature repeated (int; or char, double, short), sent
 * packed: the receiver's type has the same signature, as MPI's type matching requires. */
typedef struct {
    int k;
    MPI_Datatype types[3];
    int sizes[3];
} signature;
static const signature SIG_INT = {1, {MPI_INT}, {sizeof(int)}};
#define SIG_MIX_INIT {3, {MPI_CHAR, MPI_DOUBLE, MPI_SHORT}, {1, sizeof(double), sizeof(short)}}

static size_t sig_bytes(const signature *s, int nelem)
{
    size_t b = 0;
    for (int i = 0; i < nelem; ++i)
        b += (size_t)s->sizes[i % s->k];
    return b;
}

/* Rank 0 sends nelem elements of the signature (a pattern), then a short message tagged
 * tag + 1. */
static void send_pair(const signature *s, int nelem, int tag)
{
    size_t bytes = sig_bytes(s, nelem);
    unsigned char *buf = (unsigned char *)tu_malloc(bytes);
    tu_fill(buf, bytes, tu_seed(0, 1, bytes, tag));
    if (s->k == 1) {
        CHECK_MPI(MPI_Send(buf, nelem, s->types[0], 1, tag, MPI_COMM_WORLD));
    } else {
        int *bl = (int *)tu_malloc((size_t)nelem * sizeof *bl);
        MPI_Aint *disp = (MPI_Aint *)tu_malloc((size_t)nelem * sizeof *disp);
        MPI_Datatype *types = (MPI_Datatype *)tu_malloc((size_t)nelem * sizeof *types), t;
        MPI_Aint at = 0;
        for (int i = 0; i < nelem; ++i) {
            bl[i] = 1;
            disp[i] = at;
            types[i] = s->types[i % s->k];
            at += s->sizes[i % s->k];
        }
        CHECK_MPI(MPI_Type_create_struct(nelem, bl, disp, types, &t));
        CHECK_MPI(MPI_Type_commit(&t));
        CHECK_MPI(MPI_Send(buf, 1, t, 1, tag, MPI_COMM_WORLD));
        CHECK_MPI(MPI_Type_free(&t));
        free(bl);
        free(disp);
        free(types);
    }
    unsigned char next[16];
    tu_fill(next, sizeof next, tu_seed(0, 1, sizeof next, tag + 1));
    CHECK_MPI(MPI_Send(next, 16, MPI_BYTE, 1, tag + 1, MPI_COMM_WORLD));
    free(buf);
}

/* The short message after a truncated one arrives intact. */
static void receive_next(int tag)
{
    unsigned char got[16], want[16];
    MPI_Status st;
    CHECK_MPI(MPI_Recv(got, 16, MPI_BYTE, 0, tag + 1, MPI_COMM_WORLD, &st));
    tu_fill(want, 16, tu_seed(0, 1, 16, tag + 1));
    CHECK(memcmp(got, want, 16) == 0, "the message after a truncated one (tag %d) differs", tag + 1);
}

/* Receives a message of `bytes` bytes into count items of t (model m) that hold fewer: the
 * call fails with MPI_ERR_TRUNCATE, every hole and guard keeps its guard byte, and every byte
 * of the type map holds either its guard byte or the message's byte for that position. */
static void truncated(MPI_Datatype t, const dm_model *m, int count, size_t bytes, int tag,
                      int nonblocking)
{
    dm_buf got = dm_buf_alloc(m, count), want = dm_buf_alloc(m, count), guard = dm_buf_alloc(m, count);
    unsigned char *msg = (unsigned char *)tu_malloc(bytes);
    tu_fill(msg, bytes, tu_seed(0, 1, bytes, tag));
    dm_scatter(m, count, &want, msg, bytes); /* only as much as fits */
    MPI_Status st;
    char what[160];
    snprintf(what, sizeof what, "%zu bytes into %d items of %ld bytes (%s)", bytes, count,
             (long)m->size, nonblocking ? "Irecv + Wait" : "Recv");
    if (nonblocking) {
        MPI_Request req;
        CHECK_MPI(MPI_Irecv(got.base, count, t, 0, tag, MPI_COMM_WORLD, &req));
        CHECK_CLASS(MPI_Wait(&req, &st), MPI_ERR_TRUNCATE);
    } else {
        CHECK_CLASS(MPI_Recv(got.base, count, t, 0, tag, MPI_COMM_WORLD, &st), MPI_ERR_TRUNCATE);
    }
    /* Byte by byte: a guard byte, or the message's byte at that place of the type map. */
    for (size_t i = 0; i < got.total; ++i) {
        if (got.mem[i] == guard.mem[i] || got.mem[i] == want.mem[i])
            continue;
        char where[160];
        MPI_Aint off = (MPI_Aint)i - TU_GUARD_SIZE + got.lo;
        dm_describe(m, count, &got, off, where, sizeof where);
        tu_fail(__FILE__, __LINE__, what,
                "a truncated receive wrote offset %ld (%s): 0x%02x, expected the guard byte "
                "0x%02x or the message's 0x%02x",
                (long)off, where, got.mem[i], guard.mem[i], want.mem[i]);
    }
    receive_next(tag);
    ++checks;
    free(msg);
    dm_buf_free(&got);
    dm_buf_free(&want);
    dm_buf_free(&guard);
}

/* Receives a message of `bytes` bytes into count items of t that hold more: the bytes fill
 * the type map from its start and nothing else changes; Get_count and Get_elements as given
 * (want_count -1: MPI_UNDEFINED). */
static void partial(MPI_Datatype t, const dm_model *m, int count, size_t bytes, int tag,
                    int want_count, int want_elements, const char *what)
{
    dm_buf got = dm_buf_alloc(m, count), want = dm_buf_alloc(m, count);
    unsigned char *msg = (unsigned char *)tu_malloc(bytes);
    tu_fill(msg, bytes, tu_seed(0, 1, bytes, tag));
    dm_scatter(m, count, &want, msg, bytes);
    MPI_Status st;
    CHECK_MPI(MPI_Recv(got.base, count, t, 0, tag, MPI_COMM_WORLD, &st));
    receive_next(tag);
    DM_COMPARE(m, count, &got, &want, what);
    int n = -2, e = -2;
    CHECK_MPI(MPI_Get_count(&st, t, &n));
    CHECK_MPI(MPI_Get_elements(&st, t, &e));
    if (want_count < 0)
        want_count = MPI_UNDEFINED;
    CHECK(n == want_count && e == want_elements,
          "%s: Get_count %d, Get_elements %d; expected %d and %d (MPI_UNDEFINED is %d)", what, n,
          e, want_count, want_elements, MPI_UNDEFINED);
    /* MPI_BYTE's view of the same status: the byte count */
    CHECK_MPI(MPI_Get_count(&st, MPI_BYTE, &n));
    CHECK_EQ(n, bytes);
    ++checks;
    free(msg);
    dm_buf_free(&got);
    dm_buf_free(&want);
}

int main(int argc, char **argv)
{
    tu_init(&argc, &argv);
    tu_require_ranks(2, 2);
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));

    MPI_Datatype vec, mix, nested;
    dm_model mvec, mmix, mnested;
    vector_int(&vec, &mvec);
    {
        /* struct { char; double; short } : 1 + 8 + 2 bytes of data at 0, 8, 16 */
        int bl[3] = {1, 1, 1};
        MPI_Aint disp[3] = {0, 8, 16};
        MPI_Datatype types[3] = {MPI_CHAR, MPI_DOUBLE, MPI_SHORT};
        dm_model mc = dm_basic(1), md = dm_basic(8), ms = dm_basic(2);
        const dm_model *models[3] = {&mc, &md, &ms};
        CHECK_MPI(MPI_Type_create_struct(3, bl, disp, types, &mix));
        CHECK_MPI(MPI_Type_commit(&mix));
        mmix = dm_struct_like(3, bl, disp, models, 1);
        dm_free(&mc);
        dm_free(&md);
        dm_free(&ms);
    }
    /* hvector(2, 1, -200 B) of the int vector: 24 ints */
    CHECK_MPI(MPI_Type_create_hvector(2, 1, -200, vec, &nested));
    CHECK_MPI(MPI_Type_commit(&nested));
    mnested = dm_hvector(2, 1, -200, &mvec);
    DM_CHECK_BOUNDS(vec, &mvec, "vector(4, 3, 5, INT)");
    DM_CHECK_BOUNDS(mix, &mmix, "struct{char; double; short}");
    DM_CHECK_BOUNDS(nested, &mnested, "hvector(2, 1, -200, vector)");

    static const signature SIG_MIX = SIG_MIX_INIT;
    /* Truncation: a few elements more than fit (eager) and >= 1 MiB (rendezvous). */
    struct {
        MPI_Datatype t;
        const dm_model *m;
        int count;
        const signature *sig;
        int nelem;
    } tr[] = {
        {vec, &mvec, 1, &SIG_INT, 13},
        {vec, &mvec, 3, &SIG_INT, 3 * 12 + 25},
        {mix, &mmix, 2, &SIG_MIX, 2 * 3 + 1},
        {nested, &mnested, 1, &SIG_INT, 24 + 2},
        {vec, &mvec, 30000, &SIG_INT, 30000 * 12 + 1024},
        {nested, &mnested, 11000, &SIG_INT, 11000 * 24 + 250},
    };
    int ntr = (int)(sizeof tr / sizeof tr[0]);
    for (int i = 0; i < ntr; ++i)
        for (int nb = 0; nb < 2; ++nb) {
            int tag = 10 * i + 2 * nb;
            if (tu_rank == 0)
                send_pair(tr[i].sig, tr[i].nelem, tag);
            else
                truncated(tr[i].t, tr[i].m, tr[i].count, sig_bytes(tr[i].sig, tr[i].nelem), tag,
                          nb);
        }

    /* Partial receives. */
    struct {
        MPI_Datatype t;
        const dm_model *m;
        int count;
        const signature *sig;
        int nelem;
        int want_count;
        const char *what;
    } pr[] = {
        {vec, &mvec, 3, &SIG_INT, 0, 0, "nothing into 3 vectors"},
        {vec, &mvec, 3, &SIG_INT, 12, 1, "1 vector's worth into 3"},
        {vec, &mvec, 3, &SIG_INT, 12 + 7, -1, "1 vector and 7 ints into 3 vectors"},
        {mix, &mmix, 4, &SIG_MIX, 2 * 3 + 2, -1, "2 structs, a char and a double into 4 structs"},
        {mix, &mmix, 4, &SIG_MIX, 3 * 3, 3, "3 structs into 4"},
        {nested, &mnested, 2, &SIG_INT, 24 + 13, -1, "1 nested item and 13 ints into 2"},
        {vec, &mvec, 40000, &SIG_INT, 30000 * 12 + 7, -1,
         "30000 vectors and 7 ints (rendezvous) into 40000"},
    };
    int npr = (int)(sizeof pr / sizeof pr[0]);
    for (int i = 0; i < npr; ++i) {
        int tag = 1000 + 10 * i;
        if (tu_rank == 0)
            send_pair(pr[i].sig, pr[i].nelem, tag);
        else
            partial(pr[i].t, pr[i].m, pr[i].count, sig_bytes(pr[i].sig, pr[i].nelem), tag,
                    pr[i].want_count, pr[i].nelem, pr[i].what);
    }

    CHECK_MPI(MPI_Type_free(&vec));
    CHECK_MPI(MPI_Type_free(&mix));
    CHECK_MPI(MPI_Type_free(&nested));
    dm_free(&mvec);
    dm_free(&mmix);
    dm_free(&mnested);
    return tu_finish("%d truncated receives into vector, struct and nested types (eager and "
                     ">= 1 MiB; Recv and Irecv+Wait) gave MPI_ERR_TRUNCATE and wrote nothing "
                     "outside the type map; %d partial receives filled the type map's prefix "
                     "with Get_count / Get_elements right",
                     ntr * 2, npr);
}
