/* MPI_Type_create_subarray (MPI-2.2 4.1.3), 1-4 ranks: layouts checked against hand-written
 * indexed types (literal displacements) and, for 200 random subarrays of 1-4 dimensions in
 * both orders, against the test's own sequential model (walk the array in memory order, keep
 * the elements whose coordinates lie inside) and an indexed type built from it, byte by byte;
 * bounds (lb 0, extent the whole array), two items in a row, a non-basic oldtype
 * (MPI_DOUBLE_INT); the envelope and contents; a 3-D face sent around the ranks as a subarray
 * and received contiguous and the reverse; every misuse's class and the argument its message
 * names. */
#include "datatype_layout.h"

/* The elements of the subarray in type-map order (= memory order): their linear indices. */
static int model_subarray(int nd, const int *sizes, const int *subsizes, const int *starts,
                          int order, int *out)
{
    long total = 1;
    for (int d = 0; d < nd; ++d)
        total *= sizes[d];
    int n = 0;
    for (long lin = 0; lin < total; ++lin) {
        long rest = lin;
        int inside = 1;
        for (int k = nd - 1; k >= 0; --k) { /* the fastest dimension first */
            int d = order == MPI_ORDER_C ? k : nd - 1 - k;
            int c = (int)(rest % sizes[d]);
            rest /= sizes[d];
            inside = inside && c >= starts[d] && c < starts[d] + subsizes[d];
        }
        if (inside)
            out[n++] = (int)lin;
    }
    return n;
}

/* An indexed type of the model's elements (runs of consecutive indices as blocks) resized to
 * the whole array: the reference layout. */
static MPI_Datatype indexed_of(const int *idx, int n, int total, MPI_Datatype old)
{
    int *bl = tu_malloc((size_t)(n + 1) * sizeof(int)), *disp = tu_malloc((size_t)(n + 1) * sizeof(int));
    int count = 0;
    for (int i = 0; i < n; ++i) {
        if (count > 0 && disp[count - 1] + bl[count - 1] == idx[i]) {
            ++bl[count - 1];
        } else {
            disp[count] = idx[i];
            bl[count++] = 1;
        }
    }
    MPI_Datatype ind, ref;
    MPI_Aint lb, ext;
    CHECK_MPI(MPI_Type_get_extent(old, &lb, &ext));
    CHECK_MPI(MPI_Type_indexed(count, bl, disp, old, &ind));
    CHECK_MPI(MPI_Type_create_resized(ind, 0, (MPI_Aint)total * ext, &ref));
    CHECK_MPI(MPI_Type_free(&ind));
    CHECK_MPI(MPI_Type_commit(&ref));
    free(bl);
    free(disp);
    return ref;
}

static MPI_Datatype subarray(int nd, const int *sizes, const int *subsizes, const int *starts,
                             int order, MPI_Datatype old)
{
    MPI_Datatype t;
    CHECK_MPI(MPI_Type_create_subarray(nd, sizes, subsizes, starts, order, old, &t));
    CHECK_MPI(MPI_Type_commit(&t));
    return t;
}

/* Literal layouts written by hand. */
static void hand_written(void)
{
    /* 4 x 5 ints, C order, 2 x 3 from (1, 1): rows 1 and 2, columns 1..3. */
    {
        int sizes[] = {4, 5}, sub[] = {2, 3}, starts[] = {1, 1};
        MPI_Datatype t = subarray(2, sizes, sub, starts, MPI_ORDER_C, MPI_INT), ind, ref;
        int bl[] = {3, 3}, disp[] = {6, 11};
        CHECK_MPI(MPI_Type_indexed(2, bl, disp, MPI_INT, &ind));
        CHECK_MPI(MPI_Type_create_resized(ind, 0, 20 * sizeof(int), &ref));
        CHECK_MPI(MPI_Type_commit(&ref));
        dl_same_layout(t, ref, 1, "C 4x5 [1:3, 1:4]");
        dl_same_layout(t, ref, 3, "C 4x5 [1:3, 1:4] x 3");
        int model[] = {6, 7, 8, 11, 12, 13};
        dl_selects(t, 20, model, 6, "C 4x5 [1:3, 1:4]");
        int ints[] = {2, 4, 5, 2, 3, 1, 1, MPI_ORDER_C};
        dl_contents(t, MPI_COMBINER_SUBARRAY, ints, 8, MPI_INT, "C 4x5");
        MPI_Type_free(&ind);
        MPI_Type_free(&ref);
        MPI_Type_free(&t);
    }
    /* The same numbers in Fortran order: dimension 0 (4) varies fastest; columns 1..3 of 2. */
    {
        int sizes[] = {4, 5}, sub[] = {2, 3}, starts[] = {1, 1};
        MPI_Datatype t = subarray(2, sizes, sub, starts, MPI_ORDER_FORTRAN, MPI_INT);
        int model[] = {5, 6, 9, 10, 13, 14};
        dl_selects(t, 20, model, 6, "Fortran 4x5 (1:3, 1:4)");
        MPI_Aint lb, ext;
        CHECK_MPI(MPI_Type_get_extent(t, &lb, &ext));
        CHECK(lb == 0 && ext == 20 * (MPI_Aint)sizeof(int), "lb %td extent %td", lb, ext);
        MPI_Type_free(&t);
    }
    /* 3-D 3 x 4 x 5, the face x = 4 (C order): single ints 5 apart. */
    {
        int sizes[] = {3, 4, 5}, sub[] = {3, 4, 1}, starts[] = {0, 0, 4};
        MPI_Datatype t = subarray(3, sizes, sub, starts, MPI_ORDER_C, MPI_INT), ref;
        CHECK_MPI(MPI_Type_vector(12, 1, 5, MPI_INT, &ref));
        MPI_Datatype placed, resized;
        int one = 1;
        MPI_Aint at = 4 * sizeof(int);
        CHECK_MPI(MPI_Type_create_hindexed(1, &one, &at, ref, &placed));
        CHECK_MPI(MPI_Type_create_resized(placed, 0, 60 * sizeof(int), &resized));
        CHECK_MPI(MPI_Type_commit(&resized));
        dl_same_layout(t, resized, 2, "C 3x4x5 face x=4");
        MPI_Type_free(&ref);
        MPI_Type_free(&placed);
        MPI_Type_free(&resized);
        MPI_Type_free(&t);
    }
}

/* Random subarrays against the model and the indexed type made from it. */
static void random_subarrays(void)
{
    int model[4096];
    for (int c = 0; c < 200; ++c) {
        int nd = 1 + dl_rand(4), sizes[4], sub[4], starts[4], total = 1;
        for (int d = 0; d < nd; ++d) {
            sizes[d] = 1 + dl_rand(7);
            sub[d] = 1 + dl_rand(sizes[d]);
            starts[d] = dl_rand(sizes[d] - sub[d] + 1);
            total *= sizes[d];
        }
        int order = dl_rand(2) ? MPI_ORDER_C : MPI_ORDER_FORTRAN;
        char what[160];
        snprintf(what, sizeof what, "case %d: %dD sizes %d,%d,%d,%d sub %d,%d,%d,%d starts %d,%d,%d,%d %s",
                 c, nd, sizes[0], nd > 1 ? sizes[1] : 0, nd > 2 ? sizes[2] : 0, nd > 3 ? sizes[3] : 0,
                 sub[0], nd > 1 ? sub[1] : 0, nd > 2 ? sub[2] : 0, nd > 3 ? sub[3] : 0, starts[0],
                 nd > 1 ? starts[1] : 0, nd > 2 ? starts[2] : 0, nd > 3 ? starts[3] : 0,
                 order == MPI_ORDER_C ? "C" : "Fortran");
        int n = model_subarray(nd, sizes, sub, starts, order, model);
        MPI_Datatype t = subarray(nd, sizes, sub, starts, order, MPI_INT);
        dl_selects(t, total, model, n, what);
        MPI_Datatype ref = indexed_of(model, n, total, MPI_INT);
        dl_same_layout(t, ref, 2, what);
        MPI_Type_free(&ref);
        MPI_Type_free(&t);
        /* An oldtype with a hole: the same layout at the pair's extent. */
        t = subarray(nd, sizes, sub, starts, order, MPI_DOUBLE_INT);
        ref = indexed_of(model, n, total, MPI_DOUBLE_INT);
        dl_same_layout(t, ref, 2, what);
        MPI_Type_free(&ref);
        MPI_Type_free(&t);
    }
}

/* A 6 x 5 x 4 array of ints per rank; each rank sends the face y = 3 (6 x 1 x 4) to the next
 * rank as a subarray and receives the previous rank's into a contiguous buffer, then the
 * reverse (contiguous out, subarray in). */
static void faces_around(void)
{
    enum { Z = 6, Y = 5, X = 4, N = Z * Y * X, F = Z * X };
    int sizes[] = {Z, Y, X}, sub[] = {Z, 1, X}, starts[] = {0, 3, 0};
    MPI_Datatype face = subarray(3, sizes, sub, starts, MPI_ORDER_C, MPI_INT);
    int model[F];
    CHECK_EQ(model_subarray(3, sizes, sub, starts, MPI_ORDER_C, model), F);
    int a[N], flat[F], b[N];
    int next = (tu_rank + 1) % tu_size, prev = (tu_rank + tu_size - 1) % tu_size;
    for (int i = 0; i < N; ++i)
        a[i] = tu_rank * 1000 + i;
    CHECK_MPI(MPI_Sendrecv(a, 1, face, next, 1, flat, F, MPI_INT, prev, 1, MPI_COMM_WORLD,
                           MPI_STATUS_IGNORE));
    for (int i = 0; i < F; ++i)
        CHECK(flat[i] == prev * 1000 + model[i], "face element %d is %d, expected %d", i, flat[i],
              prev * 1000 + model[i]);
    for (int i = 0; i < F; ++i)
        flat[i] = tu_rank * 1000 + i;
    for (int i = 0; i < N; ++i)
        b[i] = -1;
    MPI_Status st;
    CHECK_MPI(MPI_Sendrecv(flat, F, MPI_INT, next, 2, b, 1, face, prev, 2, MPI_COMM_WORLD, &st));
    int count = -1;
    CHECK_MPI(MPI_Get_count(&st, face, &count));
    CHECK_EQ(count, 1);
    for (int i = 0, k = 0; i < N; ++i) {
        int selected = k < F && model[k] == i;
        int want = selected ? prev * 1000 + k : -1;
        CHECK(b[i] == want, "received array[%d] = %d, expected %d", i, b[i], want);
        k += selected;
    }
    MPI_Type_free(&face);
    ++dl_checks;
}

static void misuse(void)
{
    int sizes[] = {4, 5}, sub[] = {2, 3}, starts[] = {1, 1};
    MPI_Datatype t;
    int bad_starts[] = {1, 3}; /* 3 + 3 > 5 */
    CHECK_ERR(MPI_Type_create_subarray(2, sizes, sub, bad_starts, MPI_ORDER_C, MPI_INT, &t), MPI_ERR_ARG,
              "array_of_starts[1]");
    int neg_starts[] = {-1, 0};
    CHECK_ERR(MPI_Type_create_subarray(2, sizes, sub, neg_starts, MPI_ORDER_C, MPI_INT, &t), MPI_ERR_ARG,
              "array_of_starts[0]");
    int big_sub[] = {5, 3};
    CHECK_ERR(MPI_Type_create_subarray(2, sizes, big_sub, starts, MPI_ORDER_C, MPI_INT, &t), MPI_ERR_ARG,
              "array_of_subsizes[0]");
#ifdef PLEXUS_MPI /* MPI-2.2 makes a subsize of 0 erroneous; MPICH 4.0 accepts it (an empty type) */
    int zero_sub[] = {2, 0};
    CHECK_ERR(MPI_Type_create_subarray(2, sizes, zero_sub, starts, MPI_ORDER_C, MPI_INT, &t), MPI_ERR_ARG,
              "array_of_subsizes[1]");
#endif
    int zero_size[] = {0, 5};
    CHECK_ERR(MPI_Type_create_subarray(2, zero_size, sub, starts, MPI_ORDER_C, MPI_INT, &t), MPI_ERR_ARG,
              "array_of_sizes[0]");
    CHECK_ERR(MPI_Type_create_subarray(0, sizes, sub, starts, MPI_ORDER_C, MPI_INT, &t), MPI_ERR_ARG, "ndims");
    CHECK_ERR(MPI_Type_create_subarray(2, NULL, sub, starts, MPI_ORDER_C, MPI_INT, &t), MPI_ERR_ARG,
              "array_of_sizes");
    CHECK_ERR(MPI_Type_create_subarray(2, sizes, sub, starts, 7, MPI_INT, &t), MPI_ERR_ARG, "order");
    CHECK_ERR(MPI_Type_create_subarray(2, sizes, sub, starts, MPI_ORDER_C, MPI_DATATYPE_NULL, &t), MPI_ERR_TYPE,
              "oldtype");
    CHECK_ERR(MPI_Type_create_subarray(2, sizes, sub, starts, MPI_ORDER_C, MPI_INT, NULL), MPI_ERR_ARG, "newtype");
    int huge[] = {1 << 30, 1 << 30, 1 << 30};
    int one[] = {1, 1, 1}, zero[] = {0, 0, 0};
    CHECK_ERR(MPI_Type_create_subarray(3, huge, one, zero, MPI_ORDER_C, MPI_DOUBLE, &t), MPI_ERR_ARG,
              "array_of_sizes");
}

int main(int argc, char **argv)
{
    tu_init(&argc, &argv);
    tu_require_ranks(1, 4);
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    hand_written();
    random_subarrays();
    faces_around();
    misuse();
    return tu_finish("%d subarray checks: hand-written indexed layouts, 200 random subarrays "
                     "(1-4 dimensions, C and Fortran order, MPI_INT and MPI_DOUBLE_INT) against a "
                     "sequential model byte by byte, envelope and contents, 3-D faces sent around "
                     "the ranks both ways, 11 misuses",
                     dl_checks);
}
