/* Datatype queries, on each rank alone (1-4 ranks):
 *  - MPI_Type_get_envelope for every combiner (NAMED for predefined and pair types, DUP,
 *    CONTIGUOUS, VECTOR, HVECTOR, INDEXED, HINDEXED, INDEXED_BLOCK, STRUCT, RESIZED) gives the
 *    combiner and the numbers of integers, addresses and datatypes of MPI-2.2's table (4.1.13);
 *  - MPI_Type_get_contents gives back exactly the constructor's arguments; a type rebuilt from
 *    them has the same size, bounds and true bounds and packs a pattern into the same bytes;
 *    the derived types it returns are new handles the caller frees (the original keeps
 *    working), predefined ones are the predefined handles themselves;
 *  - extents and true extents of resized types (true bounds ignore the resize);
 *  - names: predefined types are named after their handles, a new type has an empty name,
 *    Type_set_name / get_name round trip (up to MPI_MAX_OBJECT_NAME - 1 characters). */
#include "test_util.h"

static int checks;

static int is_predefined(MPI_Datatype t)
{
    int ni, na, nd, comb;
    CHECK_MPI(MPI_Type_get_envelope(t, &ni, &na, &nd, &comb));
    return comb == MPI_COMBINER_NAMED;
}

/* Rebuilds a type from its envelope and contents. */
static MPI_Datatype rebuild(int comb, const int *i, const MPI_Aint *a, const MPI_Datatype *d)
{
    MPI_Datatype t = MPI_DATATYPE_NULL;
    switch (comb) {
    case MPI_COMBINER_DUP: CHECK_MPI(MPI_Type_dup(d[0], &t)); break;
    case MPI_COMBINER_CONTIGUOUS: CHECK_MPI(MPI_Type_contiguous(i[0], d[0], &t)); break;
    case MPI_COMBINER_VECTOR: CHECK_MPI(MPI_Type_vector(i[0], i[1], i[2], d[0], &t)); break;
    case MPI_COMBINER_HVECTOR: CHECK_MPI(MPI_Type_create_hvector(i[0], i[1], a[0], d[0], &t)); break;
    case MPI_COMBINER_INDEXED:
        CHECK_MPI(MPI_Type_indexed(i[0], i + 1, i + 1 + i[0], d[0], &t));
        break;
    case MPI_COMBINER_HINDEXED: CHECK_MPI(MPI_Type_create_hindexed(i[0], i + 1, a, d[0], &t)); break;
    case MPI_COMBINER_INDEXED_BLOCK:
        CHECK_MPI(MPI_Type_create_indexed_block(i[0], i[1], i + 2, d[0], &t));
        break;
    case MPI_COMBINER_STRUCT: CHECK_MPI(MPI_Type_create_struct(i[0], i + 1, a, d, &t)); break;
    case MPI_COMBINER_RESIZED: CHECK_MPI(MPI_Type_create_resized(d[0], a[0], a[1], &t)); break;
    default: CHECK(0, "no rebuild for combiner %d", comb);
    }
    CHECK_MPI(MPI_Type_commit(&t));
    return t;
}

/* Packs one item of t from a pattern buffer covering its true extent. */
static unsigned char *pack_one(MPI_Datatype t, int *len)
{
    MPI_Aint tlb, text;
    int size;
    CHECK_MPI(MPI_Type_get_true_extent(t, &tlb, &text));
    CHECK_MPI(MPI_Pack_size(1, t, MPI_COMM_WORLD, &size));
    unsigned char *src = (unsigned char *)tu_malloc((size_t)text);
    tu_fill(src, (size_t)text, tu_seed(1, 2, 3, 4));
    unsigned char *out = (unsigned char *)tu_malloc((size_t)size);
    int pos = 0;
    CHECK_MPI(MPI_Pack(src - tlb, 1, t, out, size, &pos, MPI_COMM_WORLD));
    free(src);
    *len = pos;
    return out;
}

/* The envelope says (ni, na, nd, comb); get_contents returns exactly ints/addrs/types; a type
 * rebuilt from them behaves the same; returned derived types are freed afterwards. */
static void round_trip(const char *what, MPI_Datatype t, int comb, int ni, int na, int nd,
                       const int *ints, const MPI_Aint *addrs, const MPI_Datatype *types)
{
    int gi = -1, ga = -1, gd = -1, gc = -1;
    MPI_Datatype handle = t;
    CHECK_MPI(MPI_Type_commit(&t)); /* to pack with it; the handle stays the same */
    CHECK(t == handle, "%s: MPI_Type_commit changed the handle", what);
    CHECK_MPI(MPI_Type_get_envelope(t, &gi, &ga, &gd, &gc));
    CHECK(gi == ni && ga == na && gd == nd && gc == comb,
          "%s: envelope (%d integers, %d addresses, %d datatypes, combiner %d), expected (%d, "
          "%d, %d, %d)",
          what, gi, ga, gd, gc, ni, na, nd, comb);
    int ri[64];
    MPI_Aint ra[64];
    MPI_Datatype rd[64];
    CHECK(ni <= 64 && na <= 64 && nd <= 64, "%s: too many arguments for this test", what);
    CHECK_MPI(MPI_Type_get_contents(t, ni, na, nd, ri, ra, rd));
    for (int k = 0; k < ni; ++k)
        CHECK(ri[k] == ints[k], "%s: integer %d is %d, expected %d", what, k, ri[k], ints[k]);
    for (int k = 0; k < na; ++k)
        CHECK(ra[k] == addrs[k], "%s: address %d is %ld, expected %ld", what, k, (long)ra[k],
              (long)addrs[k]);
    for (int k = 0; k < nd; ++k) {
        if (is_predefined(types[k]))
            CHECK(rd[k] == types[k], "%s: datatype %d is not the predefined handle given", what, k);
        else
            CHECK(!is_predefined(rd[k]), "%s: datatype %d came back predefined", what, k);
    }
    MPI_Datatype r = rebuild(comb, ri, ra, rd);
    int s1, s2, l1, l2;
    MPI_Aint lb1, ex1, lb2, ex2, tl1, te1, tl2, te2;
    CHECK_MPI(MPI_Type_size(t, &s1));
    CHECK_MPI(MPI_Type_size(r, &s2));
    CHECK_MPI(MPI_Type_get_extent(t, &lb1, &ex1));
    CHECK_MPI(MPI_Type_get_extent(r, &lb2, &ex2));
    CHECK_MPI(MPI_Type_get_true_extent(t, &tl1, &te1));
    CHECK_MPI(MPI_Type_get_true_extent(r, &tl2, &te2));
    CHECK(s1 == s2 && lb1 == lb2 && ex1 == ex2 && tl1 == tl2 && te1 == te2,
          "%s rebuilt from its contents: size %d, lb %ld, extent %ld, true %ld+%ld; the "
          "original: %d, %ld, %ld, %ld+%ld",
          what, s2, (long)lb2, (long)ex2, (long)tl2, (long)te2, s1, (long)lb1, (long)ex1,
          (long)tl1, (long)te1);
    unsigned char *p1 = pack_one(t, &l1), *p2 = pack_one(r, &l2);
    CHECK(l1 == l2 && memcmp(p1, p2, (size_t)l1) == 0,
          "%s rebuilt from its contents packs differently (%d and %d bytes)", what, l1, l2);
    free(p2);
    CHECK_MPI(MPI_Type_free(&r));
    for (int k = 0; k < nd; ++k)
        if (!is_predefined(rd[k]))
            CHECK_MPI(MPI_Type_free(&rd[k]));
    /* the original is unaffected by freeing what get_contents returned */
    p2 = pack_one(t, &l2);
    CHECK(l1 == l2 && memcmp(p1, p2, (size_t)l1) == 0,
          "%s packs differently after the types get_contents returned were freed", what);
    free(p1);
    free(p2);
    ++checks;
}

static void combiners(void)
{
    MPI_Datatype t, vec;
    CHECK_MPI(MPI_Type_vector(3, 2, 4, MPI_INT, &vec));
    CHECK_MPI(MPI_Type_commit(&vec));

    static const MPI_Datatype pairs[] = {MPI_FLOAT_INT, MPI_DOUBLE_INT, MPI_LONG_INT, MPI_2INT,
                                         MPI_SHORT_INT, MPI_LONG_DOUBLE_INT, MPI_INT, MPI_BYTE,
                                         MPI_PACKED};
    for (size_t k = 0; k < sizeof pairs / sizeof pairs[0]; ++k) {
        int ni = -1, na = -1, nd = -1, comb = -1;
        CHECK_MPI(MPI_Type_get_envelope(pairs[k], &ni, &na, &nd, &comb));
        CHECK(ni == 0 && na == 0 && nd == 0 && comb == MPI_COMBINER_NAMED,
              "predefined type %zu: envelope (%d, %d, %d, combiner %d), expected (0, 0, 0, "
              "MPI_COMBINER_NAMED = %d)",
              k, ni, na, nd, comb, MPI_COMBINER_NAMED);
        ++checks;
    }
    {
        MPI_Aint lb, ext;
        struct di {
            double d;
            int i;
        };
        CHECK_MPI(MPI_Type_get_extent(MPI_DOUBLE_INT, &lb, &ext));
        CHECK(lb == 0 && ext == (MPI_Aint)sizeof(struct di),
              "MPI_DOUBLE_INT: lb %ld, extent %ld; expected 0 and sizeof(struct {double; int}) "
              "= %zu",
              (long)lb, (long)ext, sizeof(struct di));
        int size;
        CHECK_MPI(MPI_Type_size(MPI_DOUBLE_INT, &size));
        CHECK_EQ(size, sizeof(double) + sizeof(int));
    }

    CHECK_MPI(MPI_Type_dup(vec, &t));
    round_trip("dup(vector)", t, MPI_COMBINER_DUP, 0, 0, 1, NULL, NULL, &vec);
    CHECK_MPI(MPI_Type_free(&t));

    CHECK_MPI(MPI_Type_contiguous(7, MPI_SHORT, &t));
    {
        int i[1] = {7};
        MPI_Datatype d[1] = {MPI_SHORT};
        round_trip("contiguous(7, SHORT)", t, MPI_COMBINER_CONTIGUOUS, 1, 0, 1, i, NULL, d);
    }
    CHECK_MPI(MPI_Type_free(&t));

    CHECK_MPI(MPI_Type_vector(5, 1, -3, vec, &t));
    {
        int i[3] = {5, 1, -3};
        round_trip("vector(5, 1, -3, vector)", t, MPI_COMBINER_VECTOR, 3, 0, 1, i, NULL, &vec);
    }
    CHECK_MPI(MPI_Type_free(&t));

    CHECK_MPI(MPI_Type_create_hvector(4, 3, -40, MPI_DOUBLE, &t));
    {
        int i[2] = {4, 3};
        MPI_Aint a[1] = {-40};
        MPI_Datatype d[1] = {MPI_DOUBLE};
        round_trip("hvector(4, 3, -40, DOUBLE)", t, MPI_COMBINER_HVECTOR, 2, 1, 1, i, a, d);
    }
    CHECK_MPI(MPI_Type_free(&t));

    {
        int bl[3] = {2, 1, 4}, disp[3] = {10, -2, 3};
        CHECK_MPI(MPI_Type_indexed(3, bl, disp, vec, &t));
        int i[7] = {3, 2, 1, 4, 10, -2, 3};
        round_trip("indexed(3, vector)", t, MPI_COMBINER_INDEXED, 7, 0, 1, i, NULL, &vec);
        CHECK_MPI(MPI_Type_free(&t));
    }
    {
        int bl[2] = {3, 1};
        MPI_Aint disp[2] = {-24, 100};
        CHECK_MPI(MPI_Type_create_hindexed(2, bl, disp, MPI_INT, &t));
        int i[3] = {2, 3, 1};
        MPI_Datatype d[1] = {MPI_INT};
        round_trip("hindexed(2, INT)", t, MPI_COMBINER_HINDEXED, 3, 2, 1, i, disp, d);
        CHECK_MPI(MPI_Type_free(&t));
    }
    {
        int disp[3] = {4, 0, -8};
        CHECK_MPI(MPI_Type_create_indexed_block(3, 2, disp, MPI_FLOAT, &t));
        int i[5] = {3, 2, 4, 0, -8};
        MPI_Datatype d[1] = {MPI_FLOAT};
        round_trip("indexed_block(3, 2, FLOAT)", t, MPI_COMBINER_INDEXED_BLOCK, 5, 0, 1, i, NULL, d);
        CHECK_MPI(MPI_Type_free(&t));
    }
    {
        int bl[3] = {1, 2, 3};
        MPI_Aint disp[3] = {0, 8, -16};
        MPI_Datatype d[3] = {MPI_CHAR, vec, MPI_DOUBLE};
        CHECK_MPI(MPI_Type_create_struct(3, bl, disp, d, &t));
        int i[4] = {3, 1, 2, 3};
        round_trip("struct(CHAR, vector, DOUBLE)", t, MPI_COMBINER_STRUCT, 4, 3, 3, i, disp, d);
        CHECK_MPI(MPI_Type_free(&t));
    }
    {
        CHECK_MPI(MPI_Type_create_resized(vec, -4, 100, &t));
        MPI_Aint a[2] = {-4, 100};
        round_trip("resized(vector, -4, 100)", t, MPI_COMBINER_RESIZED, 0, 2, 1, NULL, a, &vec);
        /* true bounds ignore the resize: those of the vector (ints 0..1, 4..5, 8..9) */
        MPI_Aint lb, ext, tlb, text;
        CHECK_MPI(MPI_Type_commit(&t));
        CHECK_MPI(MPI_Type_get_extent(t, &lb, &ext));
        CHECK_MPI(MPI_Type_get_true_extent(t, &tlb, &text));
        CHECK(lb == -4 && ext == 100 && tlb == 0 && text == 10 * (MPI_Aint)sizeof(int),
              "resized(vector(3,2,4,INT), -4, 100): lb %ld extent %ld true lb %ld true extent "
              "%ld; expected -4, 100, 0, %ld",
              (long)lb, (long)ext, (long)tlb, (long)text, (long)(10 * sizeof(int)));
        CHECK_MPI(MPI_Type_free(&t));
    }
    CHECK_MPI(MPI_Type_free(&vec));
}

static void names(void)
{
    static const struct {
        MPI_Datatype t;
        const char *name;
    } predefined[] = {{MPI_INT, "MPI_INT"},       {MPI_DOUBLE, "MPI_DOUBLE"},
                      {MPI_CHAR, "MPI_CHAR"},     {MPI_BYTE, "MPI_BYTE"},
                      {MPI_PACKED, "MPI_PACKED"}, {MPI_DOUBLE_INT, "MPI_DOUBLE_INT"},
                      {MPI_2INT, "MPI_2INT"},     {MPI_UNSIGNED_LONG, "MPI_UNSIGNED_LONG"}};
    char name[MPI_MAX_OBJECT_NAME];
    int len = -1;
    for (size_t k = 0; k < sizeof predefined / sizeof predefined[0]; ++k) {
        memset(name, 'x', sizeof name);
        CHECK_MPI(MPI_Type_get_name(predefined[k].t, name, &len));
        CHECK(strcmp(name, predefined[k].name) == 0 && len == (int)strlen(name),
              "the name of %s is '%.*s' (length %d)", predefined[k].name, MPI_MAX_OBJECT_NAME - 1,
              name, len);
        ++checks;
    }
    MPI_Datatype t;
    CHECK_MPI(MPI_Type_contiguous(2, MPI_INT, &t));
    memset(name, 'x', sizeof name);
    CHECK_MPI(MPI_Type_get_name(t, name, &len));
    CHECK(name[0] == '\0' && len == 0, "a new type's name is '%.*s' (length %d), expected ''",
          MPI_MAX_OBJECT_NAME - 1, name, len);
    CHECK_MPI(MPI_Type_set_name(t, "pair of ints"));
    CHECK_MPI(MPI_Type_get_name(t, name, &len));
    CHECK(strcmp(name, "pair of ints") == 0 && len == 12, "set_name/get_name gave '%s' (%d)",
          name, len);
    char longest[MPI_MAX_OBJECT_NAME];
    memset(longest, 'n', sizeof longest - 1);
    longest[sizeof longest - 1] = '\0';
    CHECK_MPI(MPI_Type_set_name(t, longest));
    CHECK_MPI(MPI_Type_get_name(t, name, &len));
    CHECK(strcmp(name, longest) == 0 && len == MPI_MAX_OBJECT_NAME - 1,
          "a name of MPI_MAX_OBJECT_NAME - 1 characters came back as %d characters", len);
    CHECK_MPI(MPI_Type_free(&t));
    checks += 3;
}

int main(int argc, char **argv)
{
    tu_init(&argc, &argv);
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    combiners();
    names();
    return tu_finish("get_envelope/get_contents round trips of every combiner (rebuilt types "
                     "pack the same; returned types freed), pair types NAMED, resized true "
                     "extents, type names: %d checks per rank",
                     checks);
}
