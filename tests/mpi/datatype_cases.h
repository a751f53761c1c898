/* The derived datatypes the point-to-point datatype tests send (tests/mpi/README.md): one per
 * constructor, with negative strides and displacements, resized bounds and nesting, each built
 * twice, as an MPI type and as the test's own model of its type map (datatype_model.h). Every
 * intermediate type is freed as soon as the next one is built from it: a type must not depend
 * on the handles it was made of (MPI-2.2 4.1.9). */
#ifndef PLEXUS_TESTS_MPI_DATATYPE_CASES_H
#define PLEXUS_TESTS_MPI_DATATYPE_CASES_H

#include "datatype_model.h"

typedef struct {
    char name[96];
    MPI_Datatype type; /* committed */
    dm_model model;
    /* The same type signature without holes, for the contiguous side of a transfer: the one
     * basic type inside, or for mixed types a packed struct of one repetition of the signature
     * (MPI_BYTE would not match char/double/int, MPI-2.2 3.3.1). */
    MPI_Datatype elem;
    int elem_size;
    int elem_elements; /* basic elements in one elem */
    int elem_owned;    /* elem is a derived type of this case (freed with it) */
    int send_only; /* items overlap: erroneous as a receive type (MPI-2.2 4.1.11) */
} dc_case;

/* A struct with padding inside and at the end: offsets 0, 8, 16, 28; sizeof 32. */
struct dc_mix {
    char c;
    double d;
    int i[3];
    short s;
};

typedef struct {
    dm_model m_char, m_short, m_int, m_double;
} dc_basics;

static inline dc_basics dc_basic_models(void)
{
    dc_basics b;
    b.m_char = dm_basic(1);
    b.m_short = dm_basic((int)sizeof(short));
    b.m_int = dm_basic((int)sizeof(int));
    b.m_double = dm_basic((int)sizeof(double));
    return b;
}

static inline void dc_commit(dc_case *c, const char *name, MPI_Datatype t, dm_model m,
                             MPI_Datatype elem, int elem_size)
{
    snprintf(c->name, sizeof c->name, "%s", name);
    CHECK_MPI(MPI_Type_commit(&t));
    c->type = t;
    c->model = m;
    c->elem = elem;
    c->elem_size = elem_size;
    c->elem_elements = 1;
    c->elem_owned = 0;
    c->send_only = 0;
    DM_CHECK_BOUNDS(t, &c->model, name);
}

/* The struct dc_mix as MPI sees it (not resized: its extent is 32 by the alignment epsilon). */
static inline void dc_mix_type(const dc_basics *b, MPI_Datatype *t, dm_model *m)
{
    int bl[4] = {1, 1, 3, 1};
    MPI_Aint disp[4] = {offsetof(struct dc_mix, c), offsetof(struct dc_mix, d),
                        offsetof(struct dc_mix, i), offsetof(struct dc_mix, s)};
    MPI_Datatype types[4] = {MPI_CHAR, MPI_DOUBLE, MPI_INT, MPI_SHORT};
    const dm_model *models[4] = {&b->m_char, &b->m_double, &b->m_int, &b->m_short};
    CHECK_MPI(MPI_Type_create_struct(4, bl, disp, types, t));
    *m = dm_struct_like(4, bl, disp, models, 1);
}

/* Sets a mixed case's contiguous view: a struct of its signature without holes, resized to its
 * size (a struct's extent would otherwise be padded to its alignment). */
static inline void dc_set_elem(dc_case *c, MPI_Datatype packed, int size, int elements)
{
    CHECK_MPI(MPI_Type_create_resized(packed, 0, size, &c->elem));
    CHECK_MPI(MPI_Type_free(&packed));
    CHECK_MPI(MPI_Type_commit(&c->elem));
    c->elem_size = size;
    c->elem_elements = elements;
    c->elem_owned = 1;
}

/* The signature of struct dc_mix without padding: char, double, 3 int, short at 0, 1, 9, 21. */
static inline void dc_packed_mix(dc_case *c)
{
    int bl[4] = {1, 1, 3, 1};
    MPI_Aint disp[4] = {0, 1, 1 + sizeof(double), 1 + sizeof(double) + 3 * sizeof(int)};
    MPI_Datatype types[4] = {MPI_CHAR, MPI_DOUBLE, MPI_INT, MPI_SHORT};
    MPI_Datatype packed;
    CHECK_MPI(MPI_Type_create_struct(4, bl, disp, types, &packed));
    dc_set_elem(c, packed, 1 + sizeof(double) + 3 * sizeof(int) + sizeof(short), 6);
}

/* Builds every case into out (capacity DC_MAX); returns how many. */
#define DC_MAX 32
static inline int dc_build_all(dc_case *out)
{
    dc_basics b = dc_basic_models();
    int n = 0;
    MPI_Datatype t, inner, inner2;
    dm_model m, mi, mi2;

    CHECK_MPI(MPI_Type_contiguous(5, MPI_INT, &t));
    dc_commit(&out[n++], "contiguous(5, INT)", t, dm_contiguous(5, &b.m_int), MPI_INT, sizeof(int));

    CHECK_MPI(MPI_Type_vector(4, 2, 3, MPI_DOUBLE, &t));
    dc_commit(&out[n++], "vector(4, 2, 3, DOUBLE)", t, dm_vector(4, 2, 3, &b.m_double),
              MPI_DOUBLE, sizeof(double));

    CHECK_MPI(MPI_Type_vector(4, 2, -3, MPI_DOUBLE, &t));
    dc_commit(&out[n++], "vector(4, 2, -3, DOUBLE) (negative stride)", t,
              dm_vector(4, 2, -3, &b.m_double), MPI_DOUBLE, sizeof(double));

    CHECK_MPI(MPI_Type_vector(3, 1, 1, MPI_INT, &t));
    dc_commit(&out[n++], "vector(3, 1, 1, INT) (contiguous in effect)", t,
              dm_vector(3, 1, 1, &b.m_int), MPI_INT, sizeof(int));

    CHECK_MPI(MPI_Type_create_hvector(3, 2, 40, MPI_INT, &t));
    dc_commit(&out[n++], "hvector(3, 2, 40 B, INT)", t, dm_hvector(3, 2, 40, &b.m_int), MPI_INT,
              sizeof(int));

    CHECK_MPI(MPI_Type_create_hvector(5, 1, -24, MPI_SHORT, &t));
    dc_commit(&out[n++], "hvector(5, 1, -24 B, SHORT) (negative stride)", t,
              dm_hvector(5, 1, -24, &b.m_short), MPI_SHORT, sizeof(short));

    {
        int bl[3] = {3, 1, 2}, disp[3] = {4, 0, 9};
        CHECK_MPI(MPI_Type_indexed(3, bl, disp, MPI_INT, &t));
        dc_commit(&out[n++], "indexed({3,1,2}, {4,0,9}, INT) (out of order)", t,
                  dm_indexed(3, bl, disp, &b.m_int), MPI_INT, sizeof(int));
    }
    {
        int bl[3] = {2, 1, 3}, disp[3] = {-3, 5, -10};
        CHECK_MPI(MPI_Type_indexed(3, bl, disp, MPI_DOUBLE, &t));
        dc_commit(&out[n++], "indexed({2,1,3}, {-3,5,-10}, DOUBLE) (negative displacements)", t,
                  dm_indexed(3, bl, disp, &b.m_double), MPI_DOUBLE, sizeof(double));
    }
    {
        int bl[3] = {2, 3, 1};
        MPI_Aint disp[3] = {64, 0, -32};
        CHECK_MPI(MPI_Type_create_hindexed(3, bl, disp, MPI_DOUBLE, &t));
        dc_commit(&out[n++], "hindexed({2,3,1}, {64,0,-32} B, DOUBLE)", t,
                  dm_hindexed(3, bl, disp, &b.m_double), MPI_DOUBLE, sizeof(double));
    }
    {
        int disp[4] = {5, 0, 10, -4};
        CHECK_MPI(MPI_Type_create_indexed_block(4, 2, disp, MPI_SHORT, &t));
        dc_commit(&out[n++], "indexed_block(4, 2, {5,0,10,-4}, SHORT)", t,
                  dm_indexed_block(4, 2, disp, &b.m_short), MPI_SHORT, sizeof(short));
    }

    dc_mix_type(&b, &t, &m);
    dc_commit(&out[n++], "struct{char; double; int[3]; short} (padding, epsilon)", t, m, MPI_BYTE, 1);
    dc_packed_mix(&out[n - 1]);
    {
        /* Negative displacement and a derived member. */
        int bl[3] = {2, 1, 3};
        MPI_Datatype vec;
        dm_model mv;
        CHECK_MPI(MPI_Type_vector(2, 1, 2, MPI_INT, &vec));
        mv = dm_vector(2, 1, 2, &b.m_int);
        MPI_Aint disp[3] = {-16, 8, 40};
        MPI_Datatype types[3] = {MPI_SHORT, vec, MPI_CHAR};
        const dm_model *models[3] = {&b.m_short, &mv, &b.m_char};
        CHECK_MPI(MPI_Type_create_struct(3, bl, disp, types, &t));
        CHECK_MPI(MPI_Type_free(&vec));
        dc_commit(&out[n++], "struct{2 SHORT at -16; vector(2,1,2,INT) at 8; 3 CHAR at 40}", t,
                  dm_struct_like(3, bl, disp, models, 1), MPI_BYTE, 1);
        /* its signature packed: 2 short, 2 int, 3 char */
        int pbl[3] = {2, 2, 3};
        MPI_Aint pdisp[3] = {0, 2 * sizeof(short), 2 * sizeof(short) + 2 * sizeof(int)};
        MPI_Datatype ptypes[3] = {MPI_SHORT, MPI_INT, MPI_CHAR};
        dc_case *c = &out[n - 1];
        MPI_Datatype packed;
        CHECK_MPI(MPI_Type_create_struct(3, pbl, pdisp, ptypes, &packed));
        dc_set_elem(c, packed, 2 * sizeof(short) + 2 * sizeof(int) + 3, 7);
        dm_free(&mv);
    }

    CHECK_MPI(MPI_Type_create_resized(MPI_INT, 0, 12, &t));
    dc_commit(&out[n++], "resized(INT, lb 0, extent 12)", t, dm_resized(&b.m_int, 0, 12), MPI_INT,
              sizeof(int));

    CHECK_MPI(MPI_Type_vector(3, 1, 2, MPI_DOUBLE, &inner));
    mi = dm_vector(3, 1, 2, &b.m_double);
    CHECK_MPI(MPI_Type_create_resized(inner, -8, 64, &t));
    CHECK_MPI(MPI_Type_free(&inner));
    dc_commit(&out[n++], "resized(vector(3,1,2,DOUBLE), lb -8, extent 64)", t,
              dm_resized(&mi, -8, 64), MPI_DOUBLE, sizeof(double));
    dm_free(&mi);

    CHECK_MPI(MPI_Type_create_resized(MPI_DOUBLE, 0, 4, &t));
    dc_commit(&out[n++], "resized(DOUBLE, lb 0, extent 4) (overlapping items, sent only)", t,
              dm_resized(&b.m_double, 0, 4), MPI_DOUBLE, sizeof(double));
    out[n - 1].send_only = 1;

    CHECK_MPI(MPI_Type_vector(2, 3, 5, MPI_INT, &inner));
    CHECK_MPI(MPI_Type_dup(inner, &t));
    CHECK_MPI(MPI_Type_free(&inner));
    dc_commit(&out[n++], "dup(vector(2,3,5,INT))", t, dm_vector(2, 3, 5, &b.m_int), MPI_INT,
              sizeof(int));

    /* vector of struct: the struct resized to its C size, as programs describe arrays of
     * structs. */
    dc_mix_type(&b, &inner, &mi);
    CHECK_MPI(MPI_Type_create_resized(inner, 0, sizeof(struct dc_mix), &inner2));
    mi2 = dm_resized(&mi, 0, sizeof(struct dc_mix));
    CHECK_MPI(MPI_Type_free(&inner));
    CHECK_MPI(MPI_Type_vector(3, 2, 3, inner2, &t));
    CHECK_MPI(MPI_Type_free(&inner2));
    dc_commit(&out[n++], "vector(3, 2, 3, resized(struct mix, 0, 32))", t,
              dm_vector(3, 2, 3, &mi2), MPI_BYTE, 1);
    dc_packed_mix(&out[n - 1]);
    dm_free(&mi);
    dm_free(&mi2);

    /* indexed of vector, and a vector with a negative stride of that */
    CHECK_MPI(MPI_Type_vector(2, 1, 2, MPI_DOUBLE, &inner));
    mi = dm_vector(2, 1, 2, &b.m_double);
    {
        int bl[3] = {1, 2, 1}, disp[3] = {0, 3, -2};
        CHECK_MPI(MPI_Type_indexed(3, bl, disp, inner, &inner2));
        mi2 = dm_indexed(3, bl, disp, &mi);
    }
    CHECK_MPI(MPI_Type_free(&inner));
    CHECK_MPI(MPI_Type_dup(inner2, &t));
    dc_commit(&out[n++], "indexed({1,2,1}, {0,3,-2}, vector(2,1,2,DOUBLE))", t, dm_copy(&mi2),
              MPI_DOUBLE, sizeof(double));
    CHECK_MPI(MPI_Type_create_hvector(2, 1, -200, inner2, &t));
    CHECK_MPI(MPI_Type_free(&inner2));
    dc_commit(&out[n++], "hvector(2, 1, -200 B, indexed of vector)", t,
              dm_hvector(2, 1, -200, &mi2), MPI_DOUBLE, sizeof(double));
    dm_free(&mi);
    dm_free(&mi2);

    /* resized bounds are sticky: a contiguous of resized types keeps the explicit extent */
    CHECK_MPI(MPI_Type_create_resized(MPI_SHORT, -2, 6, &inner));
    mi = dm_resized(&b.m_short, -2, 6);
    CHECK_MPI(MPI_Type_contiguous(4, inner, &t));
    CHECK_MPI(MPI_Type_free(&inner));
    dc_commit(&out[n++], "contiguous(4, resized(SHORT, lb -2, extent 6))", t, dm_contiguous(4, &mi),
              MPI_SHORT, sizeof(short));
    dm_free(&mi);

    dm_free(&b.m_char);
    dm_free(&b.m_short);
    dm_free(&b.m_int);
    dm_free(&b.m_double);
    CHECK(n <= DC_MAX, "%d cases, DC_MAX is %d", n, DC_MAX);
    return n;
}

static inline void dc_free_all(dc_case *c, int n)
{
    for (int i = 0; i < n; ++i) {
        CHECK_MPI(MPI_Type_free(&c[i].type));
        CHECK(c[i].type == MPI_DATATYPE_NULL, "MPI_Type_free left the handle of %s non-null",
              c[i].name);
        dm_free(&c[i].model);
        if (c[i].elem_owned)
            CHECK_MPI(MPI_Type_free(&c[i].elem));
    }
}

#endif
