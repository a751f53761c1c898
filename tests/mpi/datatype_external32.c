/* MPI_Pack_external, MPI_Unpack_external, MPI_Pack_external_size ("external32", MPI-2.2
 * 13.5.2) and MPI_Type_match_size, 1-2 ranks: the bytes of int, short, long long, double,
 * float, char, long (4 bytes), unsigned long, wchar_t (2 bytes), long double (IEEE quad),
 * complex, a pair type and a struct with padding against bytes computed by hand, big-endian;
 * the sizes; every value back after unpacking (padding untouched); positions advancing over
 * consecutive calls; with 2 ranks the bytes sent as MPI_BYTE and unpacked on the other rank;
 * each misuse's class and the argument its message names. */
#include <wchar.h>

#include "datatype_layout.h"

static const char *ext = "external32";

/* The external32 bytes of count items of t at buf are exactly want[0..n); unpacking them gives
 * back the items' bytes (compared over each item's data through MPI_Pack). */
static void expect_bytes(const void *buf, int count, MPI_Datatype t, const unsigned char *want, int n,
                         const char *what)
{
    unsigned char out[256];
    MPI_Aint size = -1, pos = 0;
    CHECK_MPI(MPI_Pack_external_size(ext, count, t, &size));
    CHECK(size == n, "%s: MPI_Pack_external_size says %td, expected %d", what, size, n);
    memset(out, 0xee, sizeof out);
    CHECK_MPI(MPI_Pack_external(ext, buf, count, t, out, (MPI_Aint)sizeof out, &pos));
    CHECK(pos == n, "%s: position %td after packing, expected %d", what, pos, n);
    for (int i = 0; i < n; ++i)
        CHECK(out[i] == want[i], "%s: byte %d is %02x, expected %02x", what, i, out[i], want[i]);
    CHECK(out[n] == 0xee, "%s: a byte written past the packed data", what);
    /* Back: the unpacked items give the same external32 bytes again (compared in external32,
     * which leaves out padding: x87 long doubles have 6 bytes of it, which no store need keep). */
    unsigned char back[256], again[256];
    memset(back, 0, sizeof back);
    pos = 0;
    CHECK_MPI(MPI_Unpack_external(ext, out, n, &pos, back, count, t));
    CHECK(pos == n, "%s: position %td after unpacking, expected %d", what, pos, n);
    pos = 0;
    CHECK_MPI(MPI_Pack_external(ext, back, count, t, again, (MPI_Aint)sizeof again, &pos));
    CHECK(pos == n && memcmp(out, again, (size_t)n) == 0, "%s: the values differ after unpacking", what);
    ++dl_checks;
}

struct rec {
    char c;
    int i;
    double d;
};

static MPI_Datatype rec_type(void)
{
    int bl[] = {1, 1, 1};
    MPI_Aint disp[] = {offsetof(struct rec, c), offsetof(struct rec, i), offsetof(struct rec, d)};
    MPI_Datatype types[] = {MPI_CHAR, MPI_INT, MPI_DOUBLE}, t;
    CHECK_MPI(MPI_Type_create_struct(3, bl, disp, types, &t));
    CHECK_MPI(MPI_Type_commit(&t));
    return t;
}

static const unsigned char rec_bytes[] = {
    0x41, 0x00, 0x00, 0x00, 0x05, 0x3f, 0xf0, 0, 0, 0, 0, 0, 0,            /* 'A', 5, 1.0 */
    0x42, 0xff, 0xff, 0xff, 0xfa, 0xc0, 0x04, 0, 0, 0, 0, 0, 0,            /* 'B', -6, -2.5 */
};

static void basic_types(void)
{
    int ints[] = {1, -2, 0x12345678};
    const unsigned char int_bytes[] = {0, 0, 0, 1, 0xff, 0xff, 0xff, 0xfe, 0x12, 0x34, 0x56, 0x78};
    expect_bytes(ints, 3, MPI_INT, int_bytes, 12, "MPI_INT");
    short shorts[] = {0x1234, -1};
    const unsigned char short_bytes[] = {0x12, 0x34, 0xff, 0xff};
    expect_bytes(shorts, 2, MPI_SHORT, short_bytes, 4, "MPI_SHORT");
    long long lls[] = {0x0102030405060708LL, -3};
    const unsigned char ll_bytes[] = {1, 2, 3, 4, 5, 6, 7, 8, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xfd};
    expect_bytes(lls, 2, MPI_LONG_LONG, ll_bytes, 16, "MPI_LONG_LONG");
    double ds[] = {1.0, -2.5};
    const unsigned char d_bytes[] = {0x3f, 0xf0, 0, 0, 0, 0, 0, 0, 0xc0, 0x04, 0, 0, 0, 0, 0, 0};
    expect_bytes(ds, 2, MPI_DOUBLE, d_bytes, 16, "MPI_DOUBLE");
    float fs[] = {1.5f, -0.0f};
    const unsigned char f_bytes[] = {0x3f, 0xc0, 0, 0, 0x80, 0, 0, 0};
    expect_bytes(fs, 2, MPI_FLOAT, f_bytes, 8, "MPI_FLOAT");
    char cs[] = {'A', 'z'};
    const unsigned char c_bytes[] = {0x41, 0x7a};
    expect_bytes(cs, 2, MPI_CHAR, c_bytes, 2, "MPI_CHAR");
    long ls[] = {1, -2};
    const unsigned char l_bytes[] = {0, 0, 0, 1, 0xff, 0xff, 0xff, 0xfe};
    expect_bytes(ls, 2, MPI_LONG, l_bytes, 8, "MPI_LONG (4 bytes in external32)");
    unsigned long uls[] = {0xdeadbeefUL};
    const unsigned char ul_bytes[] = {0xde, 0xad, 0xbe, 0xef};
    expect_bytes(uls, 1, MPI_UNSIGNED_LONG, ul_bytes, 4, "MPI_UNSIGNED_LONG");
    wchar_t ws[] = {L'A', 0x263a};
    const unsigned char w_bytes[] = {0x00, 0x41, 0x26, 0x3a};
    expect_bytes(ws, 2, MPI_WCHAR, w_bytes, 4, "MPI_WCHAR (2 bytes in external32)");
    long double lds[] = {1.0L, -2.0L, 0.75L};
    unsigned char ld_bytes[48] = {0x3f, 0xff};
    ld_bytes[16] = 0xc0;
    ld_bytes[32] = 0x3f;
    ld_bytes[33] = 0xfe;
    ld_bytes[34] = 0x80;
    expect_bytes(lds, 3, MPI_LONG_DOUBLE, ld_bytes, 48, "MPI_LONG_DOUBLE (IEEE quad in external32)");
    float cf[] = {1.0f, -1.0f};
    const unsigned char cf_bytes[] = {0x3f, 0x80, 0, 0, 0xbf, 0x80, 0, 0};
    expect_bytes(cf, 1, MPI_C_FLOAT_COMPLEX, cf_bytes, 8, "MPI_C_FLOAT_COMPLEX");
    struct {
        double v;
        int i;
    } di = {2.0, 7};
    const unsigned char di_bytes[] = {0x40, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 7};
    expect_bytes(&di, 1, MPI_DOUBLE_INT, di_bytes, 12, "MPI_DOUBLE_INT");
}

static void derived_types(void)
{
    struct rec r[2] = {{'A', 5, 1.0}, {'B', -6, -2.5}};
    MPI_Datatype t = rec_type();
    expect_bytes(r, 2, t, rec_bytes, 26, "struct {char, int, double} x 2 (padding left out)");
    /* Every other short of 6: 0x0102, 0x0506, 0x090a. */
    short v[6] = {0x0102, 0x0304, 0x0506, 0x0708, 0x090a, 0x0b0c};
    MPI_Datatype vec;
    CHECK_MPI(MPI_Type_vector(3, 1, 2, MPI_SHORT, &vec));
    CHECK_MPI(MPI_Type_commit(&vec));
    const unsigned char v_bytes[] = {1, 2, 5, 6, 9, 10};
    expect_bytes(v, 1, vec, v_bytes, 6, "vector of 3 shorts, stride 2");
    /* Consecutive calls continue at position. */
    unsigned char out[64];
    MPI_Aint pos = 0;
    CHECK_MPI(MPI_Pack_external(ext, r, 1, t, out, sizeof out, &pos));
    CHECK_MPI(MPI_Pack_external(ext, v, 1, vec, out, sizeof out, &pos));
    CHECK(pos == 19, "position %td after two calls, expected 19", pos);
    CHECK(memcmp(out, rec_bytes, 13) == 0 && memcmp(out + 13, v_bytes, 6) == 0,
          "two calls in a row: wrong bytes");
    struct rec back = {'x', 0, 0.0};
    short vb[6] = {0};
    pos = 0;
    CHECK_MPI(MPI_Unpack_external(ext, out, 19, &pos, &back, 1, t));
    CHECK_MPI(MPI_Unpack_external(ext, out, 19, &pos, vb, 1, vec));
    CHECK(back.c == 'A' && back.i == 5 && back.d == 1.0 && vb[0] == 0x0102 && vb[1] == 0 &&
              vb[4] == 0x090a && pos == 19,
          "two unpacks in a row: wrong values");
    MPI_Type_free(&vec);
    MPI_Type_free(&t);
    dl_checks += 2;
}

/* Rank 0 packs, rank 1 checks the bytes that arrived and unpacks them. */
static void between_ranks(void)
{
    if (tu_size < 2 || tu_rank > 1)
        return;
    MPI_Datatype t = rec_type();
    unsigned char buf[26];
    if (tu_rank == 0) {
        struct rec r[2] = {{'A', 5, 1.0}, {'B', -6, -2.5}};
        MPI_Aint pos = 0;
        CHECK_MPI(MPI_Pack_external(ext, r, 2, t, buf, sizeof buf, &pos));
        CHECK_MPI(MPI_Send(buf, (int)pos, MPI_BYTE, 1, 3, MPI_COMM_WORLD));
    } else {
        CHECK_MPI(MPI_Recv(buf, 26, MPI_BYTE, 0, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        CHECK(memcmp(buf, rec_bytes, 26) == 0, "the external32 bytes that arrived differ");
        struct rec r[2];
        MPI_Aint pos = 0;
        CHECK_MPI(MPI_Unpack_external(ext, buf, 26, &pos, r, 2, t));
        CHECK(r[0].c == 'A' && r[0].i == 5 && r[0].d == 1.0 && r[1].c == 'B' && r[1].i == -6 && r[1].d == -2.5,
              "unpacked values differ");
    }
    MPI_Type_free(&t);
    ++dl_checks;
}

static void match_size(void)
{
    MPI_Datatype t;
    CHECK_MPI(MPI_Type_match_size(MPI_TYPECLASS_INTEGER, 4, &t));
    CHECK(t == MPI_INT32_T, "integer of 4 bytes is not MPI_INT32_T");
    CHECK_MPI(MPI_Type_match_size(MPI_TYPECLASS_INTEGER, 8, &t));
    CHECK(t == MPI_INT64_T, "integer of 8 bytes is not MPI_INT64_T");
    CHECK_MPI(MPI_Type_match_size(MPI_TYPECLASS_REAL, 8, &t));
    CHECK(t == MPI_DOUBLE, "real of 8 bytes is not MPI_DOUBLE");
    CHECK_MPI(MPI_Type_match_size(MPI_TYPECLASS_REAL, 4, &t));
    CHECK(t == MPI_FLOAT, "real of 4 bytes is not MPI_FLOAT");
    CHECK_MPI(MPI_Type_match_size(MPI_TYPECLASS_COMPLEX, 16, &t));
    CHECK(t == MPI_C_DOUBLE_COMPLEX, "complex of 16 bytes is not MPI_C_DOUBLE_COMPLEX");
    CHECK_ERR(MPI_Type_match_size(MPI_TYPECLASS_REAL, 3, &t), MPI_ERR_ARG, "size 3");
    CHECK_ERR(MPI_Type_match_size(9, 4, &t), MPI_ERR_ARG, "typeclass");
    CHECK_ERR(MPI_Type_match_size(MPI_TYPECLASS_REAL, 8, NULL), MPI_ERR_ARG, "datatype");
}

static void misuse(void)
{
    int x[4] = {1, 2, 3, 4};
    unsigned char out[16];
    MPI_Aint pos = 0, size;
    CHECK_ERR(MPI_Pack_external("native", x, 1, MPI_INT, out, 16, &pos), MPI_ERR_ARG, "datarep");
    CHECK_ERR(MPI_Pack_external_size("External32", 1, MPI_INT, &size), MPI_ERR_ARG, "datarep");
    CHECK_ERR(MPI_Unpack_external(NULL, out, 16, &pos, x, 1, MPI_INT), MPI_ERR_ARG, "datarep");
    CHECK_ERR(MPI_Pack_external(ext, x, -1, MPI_INT, out, 16, &pos), MPI_ERR_COUNT, "incount");
    CHECK_ERR(MPI_Unpack_external(ext, out, 16, &pos, x, -2, MPI_INT), MPI_ERR_COUNT, "outcount");
    CHECK_ERR(MPI_Pack_external_size(ext, -1, MPI_INT, &size), MPI_ERR_COUNT, "incount");
    CHECK_ERR(MPI_Pack_external(ext, x, 4, MPI_INT, out, 12, &pos), MPI_ERR_TRUNCATE, "outsize");
    CHECK_ERR(MPI_Unpack_external(ext, out, 8, &pos, x, 4, MPI_INT), MPI_ERR_TRUNCATE, "insize");
    pos = 17;
    CHECK_ERR(MPI_Pack_external(ext, x, 1, MPI_INT, out, 16, &pos), MPI_ERR_ARG, "position");
    pos = 0;
    CHECK_ERR(MPI_Pack_external(ext, x, 1, MPI_DATATYPE_NULL, out, 16, &pos), MPI_ERR_TYPE, "datatype");
    MPI_Datatype unc;
    CHECK_MPI(MPI_Type_contiguous(2, MPI_INT, &unc));
    CHECK_ERR(MPI_Pack_external_size(ext, 1, unc, &size), MPI_ERR_TYPE, "commit");
    MPI_Type_free(&unc);
    long big = 1L << 40;
    CHECK_ERR(MPI_Pack_external(ext, &big, 1, MPI_LONG, out, 16, &pos), MPI_ERR_CONVERSION, "MPI_LONG");
    CHECK(pos == 0, "a failed conversion moved the position to %td", pos);
}

int main(int argc, char **argv)
{
    tu_init(&argc, &argv);
    tu_require_ranks(1, 2);
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    basic_types();
    derived_types();
    between_ranks();
    match_size();
    misuse();
    return tu_finish("%d external32 checks: hand-computed big-endian bytes of 12 basic types, a "
                     "pair, a struct with padding and a vector; sizes; values back; positions; "
                     "bytes across ranks; MPI_Type_match_size; 12 misuses",
                     dl_checks);
}
