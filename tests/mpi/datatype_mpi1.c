/* The MPI-1 datatype calls still in MPI-2.2, 1-2 ranks: MPI_Type_hvector, MPI_Type_hindexed and
 * MPI_Type_struct make the same types as their MPI-2 forms (same envelope and contents, same
 * packed bytes); MPI_Type_extent/lb/ub agree with MPI_Type_get_extent; MPI_Address with
 * MPI_Get_address; the MPI_LB and MPI_UB markers set a struct's bounds as MPI-1 says (the marker
 * wins over the data, no alignment padding under MPI_UB, markers sticky in types built on top,
 * the same bounds as MPI_Type_create_resized), and such a type travels between ranks item by
 * item at its marked extent; misuse of each. */
#include <mpi.h>

#include "datatype_layout.h"

static void same_type(MPI_Datatype a, MPI_Datatype b, const char *what)
{
    int ai, aa, at, ac, bi, ba, bt, bc;
    CHECK_MPI(MPI_Type_get_envelope(a, &ai, &aa, &at, &ac));
    CHECK_MPI(MPI_Type_get_envelope(b, &bi, &ba, &bt, &bc));
    CHECK(ai == bi && aa == ba && at == bt && ac == bc, "%s: envelopes differ (combiner %d vs %d)", what, ac,
          bc);
    int ia[16], ib[16];
    MPI_Aint da[16], db[16];
    MPI_Datatype ta[16], tb[16];
    CHECK_MPI(MPI_Type_get_contents(a, 16, 16, 16, ia, da, ta));
    CHECK_MPI(MPI_Type_get_contents(b, 16, 16, 16, ib, db, tb));
    CHECK(memcmp(ia, ib, (size_t)ai * sizeof(int)) == 0 && memcmp(da, db, (size_t)aa * sizeof(MPI_Aint)) == 0 &&
              memcmp(ta, tb, (size_t)at * sizeof(MPI_Datatype)) == 0,
          "%s: contents differ", what);
    dl_same_layout(a, b, 3, what);
}

static void constructors(void)
{
    MPI_Datatype a, b;
    CHECK_MPI(MPI_Type_hvector(3, 2, 24, MPI_INT, &a));
    CHECK_MPI(MPI_Type_create_hvector(3, 2, 24, MPI_INT, &b));
    CHECK_MPI(MPI_Type_commit(&a));
    CHECK_MPI(MPI_Type_commit(&b));
    same_type(a, b, "MPI_Type_hvector");
    int c, n, na, nt;
    CHECK_MPI(MPI_Type_get_envelope(a, &n, &na, &nt, &c));
    CHECK_EQ(c, MPI_COMBINER_HVECTOR);
    MPI_Type_free(&a);
    MPI_Type_free(&b);

    int bl[] = {2, 1, 3};
    MPI_Aint disp[] = {40, 0, 16};
    CHECK_MPI(MPI_Type_hindexed(3, bl, disp, MPI_SHORT, &a));
    CHECK_MPI(MPI_Type_create_hindexed(3, bl, disp, MPI_SHORT, &b));
    CHECK_MPI(MPI_Type_commit(&a));
    CHECK_MPI(MPI_Type_commit(&b));
    same_type(a, b, "MPI_Type_hindexed");
    CHECK_MPI(MPI_Type_get_envelope(a, &n, &na, &nt, &c));
    CHECK_EQ(c, MPI_COMBINER_HINDEXED);
    MPI_Type_free(&a);
    MPI_Type_free(&b);

    MPI_Datatype types[] = {MPI_CHAR, MPI_DOUBLE, MPI_INT};
    MPI_Aint sdisp[] = {0, 8, 20};
    CHECK_MPI(MPI_Type_struct(3, bl, sdisp, types, &a));
    CHECK_MPI(MPI_Type_create_struct(3, bl, sdisp, types, &b));
    CHECK_MPI(MPI_Type_commit(&a));
    CHECK_MPI(MPI_Type_commit(&b));
    same_type(a, b, "MPI_Type_struct");
    CHECK_MPI(MPI_Type_get_envelope(a, &n, &na, &nt, &c));
    CHECK_EQ(c, MPI_COMBINER_STRUCT);
    MPI_Aint ext, lb, ub, glb, gext;
    CHECK_MPI(MPI_Type_extent(a, &ext));
    CHECK_MPI(MPI_Type_lb(a, &lb));
    CHECK_MPI(MPI_Type_ub(a, &ub));
    CHECK_MPI(MPI_Type_get_extent(a, &glb, &gext));
    CHECK(ext == gext && lb == glb && ub == glb + gext && ext == 32, "extent/lb/ub %td/%td/%td, get_extent %td/%td",
          ext, lb, ub, glb, gext);
    MPI_Type_free(&a);
    MPI_Type_free(&b);

    double x[4];
    MPI_Aint a1, a2;
    CHECK_MPI(MPI_Address(&x[2], &a1));
    CHECK_MPI(MPI_Get_address(&x[2], &a2));
    CHECK(a1 == a2, "MPI_Address %td, MPI_Get_address %td", a1, a2);
    dl_checks += 2;
}

static void expect_bounds(MPI_Datatype t, MPI_Aint lb, MPI_Aint ub, int size, const char *what)
{
    MPI_Aint glb, gext, l, u, e;
    int s;
    CHECK_MPI(MPI_Type_get_extent(t, &glb, &gext));
    CHECK_MPI(MPI_Type_lb(t, &l));
    CHECK_MPI(MPI_Type_ub(t, &u));
    CHECK_MPI(MPI_Type_extent(t, &e));
    CHECK_MPI(MPI_Type_size(t, &s));
    CHECK(glb == lb && glb + gext == ub && l == lb && u == ub && e == ub - lb && s == size,
          "%s: lb %td ub %td size %d (MPI_Type_lb/ub/extent %td/%td/%td), expected lb %td ub %td size %d", what,
          glb, glb + gext, s, l, u, e, lb, ub, size);
    ++dl_checks;
}

static MPI_Datatype marked(int n, const MPI_Aint *disp, const MPI_Datatype *types)
{
    int bl[8] = {1, 1, 1, 1, 1, 1, 1, 1};
    MPI_Datatype t;
    CHECK_MPI(MPI_Type_struct(n, bl, (MPI_Aint *)disp, (MPI_Datatype *)types, &t));
    CHECK_MPI(MPI_Type_commit(&t));
    return t;
}

static void markers(void)
{
    MPI_Aint z, e;
    CHECK_MPI(MPI_Type_get_extent(MPI_LB, &z, &e));
    CHECK(z == 0 && e == 0, "MPI_LB lb %td extent %td", z, e);
    int s = -1;
    CHECK_MPI(MPI_Type_size(MPI_UB, &s));
    CHECK_EQ(s, 0);

    /* lb -8 and ub 24 around two ints at 0 and 8: the markers set both bounds. */
    MPI_Aint d1[] = {-8, 0, 8, 24};
    MPI_Datatype t1[] = {MPI_LB, MPI_INT, MPI_INT, MPI_UB};
    MPI_Datatype m = marked(4, d1, t1);
    expect_bounds(m, -8, 24, 8, "{LB -8, int 0, int 8, UB 24}");
    MPI_Aint tlb, text;
    CHECK_MPI(MPI_Type_get_true_extent(m, &tlb, &text));
    CHECK(tlb == 0 && text == 12, "true lb %td extent %td, expected 0 and 12", tlb, text);
    /* The same as MPI_Type_create_resized of the data alone. */
    int bl[] = {1, 1};
    MPI_Aint dd[] = {0, 8};
    MPI_Datatype ints[] = {MPI_INT, MPI_INT}, data, resized;
    CHECK_MPI(MPI_Type_create_struct(2, bl, dd, ints, &data));
    CHECK_MPI(MPI_Type_create_resized(data, -8, 32, &resized));
    CHECK_MPI(MPI_Type_commit(&resized));
    dl_same_layout(m, resized, 3, "markers vs MPI_Type_create_resized");

    /* No alignment padding when MPI_UB sets the upper bound: {double 0, char 8, UB 9}. */
    MPI_Aint d2[] = {0, 8, 9};
    MPI_Datatype t2[] = {MPI_DOUBLE, MPI_CHAR, MPI_UB};
    MPI_Datatype u = marked(3, d2, t2);
    expect_bounds(u, 0, 9, 9, "{double 0, char 8, UB 9}");
    /* Without it the struct's extent is padded to the double's alignment: 16. */
    MPI_Datatype nu = marked(2, d2, t2);
    expect_bounds(nu, 0, 16, 9, "{double 0, char 8}");
    /* MPI_LB above the data still sets the lower bound (the marker wins). */
    MPI_Aint d3[] = {4, 0, 8};
    MPI_Datatype t3[] = {MPI_LB, MPI_INT, MPI_INT};
    MPI_Datatype l = marked(3, d3, t3);
    expect_bounds(l, 4, 12, 8, "{LB 4, int 0, int 8}");
    /* Sticky: a struct holding m at 100 has lb 92 and ub 124 whatever else it holds. */
    MPI_Aint d4[] = {100, 0};
    MPI_Datatype t4[] = {m, MPI_CHAR};
    MPI_Datatype outer = marked(2, d4, t4);
    expect_bounds(outer, 92, 124, 9, "{m at 100, char 0}");
    MPI_Datatype two;
    CHECK_MPI(MPI_Type_contiguous(2, m, &two));
    CHECK_MPI(MPI_Type_commit(&two));
    expect_bounds(two, -8, 56, 16, "contiguous 2 of m");

    /* Items of m travel at its marked extent: 3 items are ints 0, 8, 32, 40, 64, 72 (bytes
     * from the first item's origin). */
    int buf[32], got[32];
    for (int i = 0; i < 32; ++i) {
        buf[i] = i;
        got[i] = -1;
    }
    int peer = tu_size > 1 ? 1 - tu_rank : tu_rank;
    if (tu_rank < 2) {
        CHECK_MPI(MPI_Sendrecv(buf + 2, 3, m, peer, 4, got + 2, 3, m, peer, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        for (int i = 0; i < 32; ++i) {
            int k = i - 2, sent = k >= 0 && (k % 8 == 0 || k % 8 == 2) && k < 24;
            CHECK(got[i] == (sent ? i : -1), "int %d is %d after receiving 3 marked items", i, got[i]);
        }
    }
    MPI_Type_free(&m);
    MPI_Type_free(&data);
    MPI_Type_free(&resized);
    MPI_Type_free(&u);
    MPI_Type_free(&nu);
    MPI_Type_free(&l);
    MPI_Type_free(&outer);
    MPI_Type_free(&two);
    ++dl_checks;
}

static void misuse(void)
{
    MPI_Datatype t;
    MPI_Aint a;
    int bl[] = {1, -1};
    MPI_Aint disp[] = {0, 8};
    MPI_Datatype types[] = {MPI_INT, MPI_DATATYPE_NULL};
    CHECK_ERR(MPI_Type_hvector(-1, 1, 8, MPI_INT, &t), MPI_ERR_COUNT, "count");
    CHECK_ERR(MPI_Type_hvector(2, -3, 8, MPI_INT, &t), MPI_ERR_ARG, "blocklength");
    CHECK_ERR(MPI_Type_hindexed(2, bl, disp, MPI_INT, &t), MPI_ERR_ARG, "array_of_blocklengths[1]");
    CHECK_ERR(MPI_Type_hindexed(1, bl, disp, MPI_DATATYPE_NULL, &t), MPI_ERR_TYPE, "oldtype");
    int ok[] = {1, 1};
    CHECK_ERR(MPI_Type_struct(2, ok, disp, types, &t), MPI_ERR_TYPE, "array_of_types[1]");
    CHECK_ERR(MPI_Type_struct(-2, ok, disp, types, &t), MPI_ERR_COUNT, "count");
    CHECK_ERR(MPI_Type_extent(MPI_DATATYPE_NULL, &a), MPI_ERR_TYPE, "datatype");
    CHECK_ERR(MPI_Type_lb(MPI_INT, NULL), MPI_ERR_ARG, "displacement");
    CHECK_ERR(MPI_Type_ub(MPI_INT, NULL), MPI_ERR_ARG, "displacement");
    CHECK_ERR(MPI_Address(&a, NULL), MPI_ERR_ARG, "address");
    CHECK_ERR(MPI_Type_free(&(MPI_Datatype){MPI_LB}), MPI_ERR_TYPE, "predefined");
}

int main(int argc, char **argv)
{
    tu_init(&argc, &argv);
    tu_require_ranks(1, 2);
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    constructors();
    markers();
    misuse();
    return tu_finish("%d MPI-1 checks: hvector/hindexed/struct against their MPI-2 forms, "
                     "extent/lb/ub, MPI_Address, MPI_LB/MPI_UB bounds (markers win, no padding "
                     "under UB, sticky), marked items sent and received, 11 misuses",
                     dl_checks);
}
