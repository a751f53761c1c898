/* MPI_Pack, MPI_Unpack and MPI_Pack_size with derived datatypes, 2 ranks:
 *  - several Packs into one buffer (an int, 3 vectors with a negative stride, 2 structs with
 *    padding, 0 items of anything, a string of chars, an indexed type), each position
 *    advancing by at most its Pack_size, sent as MPI_PACKED with count = final position;
 *    the receiver gets Get_count(MPI_PACKED) = that position and unpacks in the same order, with
 *    positions, into derived types of the same signatures but other layouts, checked byte by
 *    byte (holes and guards kept);
 *  - a packed message received directly with a derived type, and a derived-type message
 *    received as MPI_PACKED and unpacked (both ways of MPI-2.2 4.2's type matching);
 *  - Pack of a vector then Unpack as contiguous doubles gives the type map's order; and back;
 *  - the same at >= 1 MiB (rendezvous) with one vector of 150000 items. */
#include "datatype_model.h"

static int checks;

typedef struct {
    MPI_Datatype t;
    dm_model m;
} typed;

static typed vector_double(int count, int block, int stride)
{
    typed r;
    dm_model d = dm_basic(sizeof(double));
    CHECK_MPI(MPI_Type_vector(count, block, stride, MPI_DOUBLE, &r.t));
    CHECK_MPI(MPI_Type_commit(&r.t));
    r.m = dm_vector(count, block, stride, &d);
    dm_free(&d);
    return r;
}

static typed indexed_double(int count, const int *bl, const int *disp)
{
    typed r;
    dm_model d = dm_basic(sizeof(double));
    CHECK_MPI(MPI_Type_indexed(count, bl, disp, MPI_DOUBLE, &r.t));
    CHECK_MPI(MPI_Type_commit(&r.t));
    r.m = dm_indexed(count, bl, disp, &d);
    dm_free(&d);
    return r;
}

/* struct { int; double; char } at 0, 8, 16 (extent 24), or packed at 0, 4, 12 (resized to 13). */
static typed mix(int packed)
{
    typed r;
    int bl[3] = {1, 1, 1};
    MPI_Aint disp[3] = {0, packed ? 4 : 8, packed ? 12 : 16};
    MPI_Datatype types[3] = {MPI_INT, MPI_DOUBLE, MPI_CHAR};
    dm_model mi = dm_basic(4), md = dm_basic(8), mc = dm_basic(1);
    const dm_model *models[3] = {&mi, &md, &mc};
    MPI_Datatype s;
    CHECK_MPI(MPI_Type_create_struct(3, bl, disp, types, &s));
    dm_model ms = dm_struct_like(3, bl, disp, models, 1);
    if (packed) {
        CHECK_MPI(MPI_Type_create_resized(s, 0, 13, &r.t));
        CHECK_MPI(MPI_Type_free(&s));
        r.m = dm_resized(&ms, 0, 13);
        dm_free(&ms);
    } else {
        r.t = s;
        r.m = ms;
    }
    CHECK_MPI(MPI_Type_commit(&r.t));
    dm_free(&mi);
    dm_free(&md);
    dm_free(&mc);
    return r;
}

static void typed_free(typed *x)
{
    CHECK_MPI(MPI_Type_free(&x->t));
    dm_free(&x->m);
}

/* The data count items of `from` carry when filled with seed, laid into count2 items of `to`
 * (same signature): what an unpack or receive into `to` must produce. */
static dm_buf expected(const typed *from, int count, uint64_t seed, const typed *to, int count2)
{
    dm_buf src = dm_buf_alloc(&from->m, count), want = dm_buf_alloc(&to->m, count2);
    dm_buf_fill(&src, seed);
    size_t bytes = (size_t)from->m.size * (size_t)count;
    unsigned char *stream = (unsigned char *)tu_malloc(bytes ? bytes : 1);
    dm_gather(&from->m, count, &src, stream, bytes);
    dm_scatter(&to->m, count2, &want, stream, bytes);
    free(stream);
    dm_buf_free(&src);
    return want;
}

/* One piece of the packed message: count items of `send` packed by rank 0, unpacked by rank 1
 * into count items of `recv`. */
typedef struct {
    const typed *send, *recv;
    int count;
    const char *what;
} piece;

static void pack_message(const piece *p, int n, int tag)
{
    if (tu_rank == 0) {
        int cap = 0;
        for (int i = 0; i < n; ++i) {
            int s = -1;
            CHECK_MPI(MPI_Pack_size(p[i].count, p[i].send->t, MPI_COMM_WORLD, &s));
            CHECK(s >= p[i].send->m.size * p[i].count,
                  "Pack_size of %d items of %s = %d, below their %ld bytes of data", p[i].count,
                  p[i].what, s, (long)(p[i].send->m.size * p[i].count));
            cap += s;
        }
        unsigned char *packbuf = (unsigned char *)tu_malloc((size_t)cap);
        int pos = 0;
        for (int i = 0; i < n; ++i) {
            dm_buf b = dm_buf_alloc(&p[i].send->m, p[i].count);
            dm_buf_fill(&b, tu_seed(0, 1, (size_t)tag, i));
            int before = pos, s = 0;
            CHECK_MPI(MPI_Pack_size(p[i].count, p[i].send->t, MPI_COMM_WORLD, &s));
            CHECK_MPI(MPI_Pack(b.base, p[i].count, p[i].send->t, packbuf, cap, &pos, MPI_COMM_WORLD));
            CHECK(pos >= before && pos - before <= s && (p[i].count > 0 || pos == before),
                  "Pack of %d items of %s moved the position from %d to %d (Pack_size %d)",
                  p[i].count, p[i].what, before, pos, s);
            dm_buf_free(&b);
        }
        /* the size first, so the receiver can check Get_count against it */
        CHECK_MPI(MPI_Send(&pos, 1, MPI_INT, 1, tag, MPI_COMM_WORLD));
        CHECK_MPI(MPI_Send(packbuf, pos, MPI_PACKED, 1, tag + 1, MPI_COMM_WORLD));
        free(packbuf);
        return;
    }
    int size = -1, got = -1;
    MPI_Status st;
    CHECK_MPI(MPI_Recv(&size, 1, MPI_INT, 0, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    unsigned char *packbuf = (unsigned char *)tu_malloc((size_t)size + 100);
    CHECK_MPI(MPI_Recv(packbuf, size + 100, MPI_PACKED, 0, tag + 1, MPI_COMM_WORLD, &st));
    CHECK_MPI(MPI_Get_count(&st, MPI_PACKED, &got));
    CHECK_EQ(got, size);
    int pos = 0;
    for (int i = 0; i < n; ++i) {
        dm_buf b = dm_buf_alloc(&p[i].recv->m, p[i].count);
        int before = pos;
        CHECK_MPI(MPI_Unpack(packbuf, size, &pos, b.base, p[i].count, p[i].recv->t, MPI_COMM_WORLD));
        CHECK(pos >= before && (p[i].count > 0 || pos == before),
              "Unpack of %d items of %s moved the position from %d to %d", p[i].count,
              p[i].what, before, pos);
        dm_buf want = expected(p[i].send, p[i].count, tu_seed(0, 1, (size_t)tag, i), p[i].recv,
                               p[i].count);
        char what[160];
        snprintf(what, sizeof what, "piece %d (%d items of %s) unpacked from a packed message", i,
                 p[i].count, p[i].what);
        DM_COMPARE(&p[i].recv->m, p[i].count, &b, &want, what);
        ++checks;
        dm_buf_free(&b);
        dm_buf_free(&want);
    }
    CHECK_EQ(pos, size);
    free(packbuf);
}

/* Packed -> derived and derived -> packed across the two ranks, count items. */
static void packed_typed(const typed *a, const typed *b, int count, int tag)
{
    int size = 0;
    CHECK_MPI(MPI_Pack_size(count, a->t, MPI_COMM_WORLD, &size));
    unsigned char *packbuf = (unsigned char *)tu_malloc((size_t)size);
    MPI_Status st;
    char what[160];
    if (tu_rank == 0) {
        /* 1: packed, received with type b */
        dm_buf src = dm_buf_alloc(&a->m, count);
        dm_buf_fill(&src, tu_seed(0, 1, (size_t)tag, 0));
        int pos = 0;
        CHECK_MPI(MPI_Pack(src.base, count, a->t, packbuf, size, &pos, MPI_COMM_WORLD));
        CHECK_MPI(MPI_Send(packbuf, pos, MPI_PACKED, 1, tag, MPI_COMM_WORLD));
        /* 2: sent with type a, received as MPI_PACKED */
        dm_buf_fill(&src, tu_seed(0, 1, (size_t)tag, 1));
        CHECK_MPI(MPI_Send(src.base, count, a->t, 1, tag + 1, MPI_COMM_WORLD));
        dm_buf_free(&src);
    } else {
        dm_buf dst = dm_buf_alloc(&b->m, count);
        CHECK_MPI(MPI_Recv(dst.base, count, b->t, 0, tag, MPI_COMM_WORLD, &st));
        int n = -1;
        CHECK_MPI(MPI_Get_count(&st, b->t, &n));
        CHECK_EQ(n, count);
        dm_buf want = expected(a, count, tu_seed(0, 1, (size_t)tag, 0), b, count);
        snprintf(what, sizeof what, "MPI_PACKED message of %d items received as a derived type",
                 count);
        DM_COMPARE(&b->m, count, &dst, &want, what);
        dm_buf_free(&want);

        CHECK_MPI(MPI_Recv(packbuf, size, MPI_PACKED, 0, tag + 1, MPI_COMM_WORLD, &st));
        CHECK_MPI(MPI_Get_count(&st, MPI_PACKED, &n));
        memset(dst.mem, TU_GUARD_BYTE, dst.total);
        int pos = 0;
        CHECK_MPI(MPI_Unpack(packbuf, n, &pos, dst.base, count, b->t, MPI_COMM_WORLD));
        CHECK_EQ(pos, n);
        want = expected(a, count, tu_seed(0, 1, (size_t)tag, 1), b, count);
        snprintf(what, sizeof what,
                 "derived-type message of %d items received as MPI_PACKED and unpacked", count);
        DM_COMPARE(&b->m, count, &dst, &want, what);
        checks += 2;
        dm_buf_free(&want);
        dm_buf_free(&dst);
    }
    free(packbuf);
}

/* Pack of a vector, Unpack as contiguous doubles: the type map's order; and back. */
static void local_round_trip(const typed *v, int count)
{
    dm_buf src = dm_buf_alloc(&v->m, count);
    dm_buf_fill(&src, tu_seed(tu_rank, tu_rank, 7, count));
    int size = 0, pos = 0, n = (int)(v->m.size / (MPI_Aint)sizeof(double)) * count;
    CHECK_MPI(MPI_Pack_size(count, v->t, MPI_COMM_WORLD, &size));
    unsigned char *packbuf = (unsigned char *)tu_malloc((size_t)size);
    CHECK_MPI(MPI_Pack(src.base, count, v->t, packbuf, size, &pos, MPI_COMM_WORLD));
    int packed = pos;
    double *flat = (double *)tu_malloc((size_t)n * sizeof(double) + TU_GUARD_SIZE);
    memset(flat, TU_GUARD_BYTE, (size_t)n * sizeof(double) + TU_GUARD_SIZE);
    pos = 0;
    CHECK_MPI(MPI_Unpack(packbuf, packed, &pos, flat, n, MPI_DOUBLE, MPI_COMM_WORLD));
    CHECK_EQ(pos, packed);
    unsigned char *stream = (unsigned char *)tu_malloc((size_t)n * sizeof(double));
    dm_gather(&v->m, count, &src, stream, (size_t)n * sizeof(double));
    CHECK(memcmp(flat, stream, (size_t)n * sizeof(double)) == 0,
          "Pack of %d vector items unpacked as %d doubles is not the type map's order", count, n);
    CHECK_GUARD((unsigned char *)flat + (size_t)n * sizeof(double), TU_GUARD_SIZE,
                "after the unpacked doubles");
    /* back: pack the doubles, unpack into the vector */
    pos = 0;
    CHECK_MPI(MPI_Pack(flat, n, MPI_DOUBLE, packbuf, size, &pos, MPI_COMM_WORLD));
    dm_buf dst = dm_buf_alloc(&v->m, count), want = dm_buf_alloc(&v->m, count);
    dm_scatter(&v->m, count, &want, stream, (size_t)n * sizeof(double));
    int end = pos;
    pos = 0;
    CHECK_MPI(MPI_Unpack(packbuf, end, &pos, dst.base, count, v->t, MPI_COMM_WORLD));
    DM_COMPARE(&v->m, count, &dst, &want, "doubles packed and unpacked into a vector");
    checks += 2;
    free(stream);
    free(flat);
    free(packbuf);
    dm_buf_free(&src);
    dm_buf_free(&dst);
    dm_buf_free(&want);
}

int main(int argc, char **argv)
{
    tu_init(&argc, &argv);
    tu_require_ranks(2, 2);
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));

    typed one_int, chars, vec = vector_double(3, 2, -4), mixp = mix(0), mixq = mix(1);
    {
        dm_model mi = dm_basic(4), mc = dm_basic(1);
        one_int.t = MPI_INT;
        one_int.m = mi;
        chars.t = MPI_CHAR;
        chars.m = mc;
    }
    int bl[3] = {1, 4, 1}, disp[3] = {9, 0, -2};
    typed idx = indexed_double(3, bl, disp); /* 6 doubles: the vector's signature */
    int bl2[2] = {2, 1}, disp2[2] = {-5, 3};
    typed idx3 = indexed_double(2, bl2, disp2); /* 3 doubles */

    piece pieces[] = {
        {&one_int, &one_int, 1, "INT"},
        {&vec, &idx, 3, "vector(3,2,-4,DOUBLE) into indexed({1,4,1},{9,0,-2})"},
        {&mixp, &mixq, 2, "struct{int; double; char} into its packed twin"},
        {&vec, &vec, 0, "vector (0 items)"},
        {&chars, &chars, 37, "CHAR"},
        {&idx, &vec, 2, "indexed into vector"},
        {&idx3, &idx3, 5, "indexed({2,1},{-5,3},DOUBLE)"},
    };
    pack_message(pieces, (int)(sizeof pieces / sizeof pieces[0]), 10);

    /* >= 1 MiB: rendezvous */
    piece big[] = {
        {&one_int, &one_int, 1, "INT"},
        {&vec, &idx, 30000, "30000 vectors into indexed"},
    };
    pack_message(big, 2, 20);

    packed_typed(&vec, &idx, 3, 30);
    packed_typed(&mixp, &mixq, 4, 32);
    packed_typed(&vec, &idx, 30000, 34);

    local_round_trip(&vec, 1);
    local_round_trip(&vec, 7);
    local_round_trip(&idx3, 50000);

    typed_free(&vec);
    typed_free(&mixp);
    typed_free(&mixq);
    typed_free(&idx);
    typed_free(&idx3);
    dm_free(&one_int.m);
    dm_free(&chars.m);
    return tu_finish("Pack/Unpack/Pack_size with positions: 7 pieces in one MPI_PACKED message "
                     "and 2 at >= 1 MiB unpacked into other layouts; MPI_PACKED <-> derived "
                     "types both ways; local round trips vector <-> doubles (%d checks on rank 0)",
                     checks);
}
