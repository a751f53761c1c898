/* MPI_Dims_create against the model's brute-force search (topo_model.h): every nnodes 1..48 in
 * 1..3 dimensions, 1..24 in 4, products with many factorizations (360, 720, 1024 ...) in 2 and
 * 3, fixed entries among free ones, nothing free, ndims 0 (one process); and the misuses: fixed entries that
 * do not divide nnodes or exceed it (MPI_ERR_DIMS), a negative entry (MPI_ERR_DIMS), negative
 * ndims (MPI_ERR_DIMS), nnodes 0 (MPI_ERR_ARG). Any number of ranks; each computes the same.
 * Open MPI and MPICH pick other "close" factorizations for some products (Open MPI 4.1: 72 in
 * two dimensions is 12 x 6, not 9 x 8) and other classes for some misuses: for them the test
 * checks that the result is a valid factorization (fixed entries kept, free ones non-increasing,
 * the product nnodes) and that a misuse fails. */
#include "topo_model.h"

static int checked;

static void expect(int nnodes, int ndims, const int *given)
{
    int got[TM_MAX_DIMS], want[TM_MAX_DIMS], i;
    memcpy(got, given, sizeof(int) * (size_t)ndims);
    memcpy(want, given, sizeof(int) * (size_t)ndims);
    tm_dims_create(nnodes, ndims, want);
    CHECK_MPI(MPI_Dims_create(nnodes, ndims, got));
#ifdef PLEXUS_MPI
    for (i = 0; i < ndims; ++i)
        CHECK(got[i] == want[i], "MPI_Dims_create(%d, %d): dims[%d] = %d, expected %d", nnodes, ndims, i,
              got[i], want[i]);
#else
    {
        int product = 1, last = 0;
        for (i = 0; i < ndims; ++i) {
            product *= got[i];
            CHECK(!given[i] || got[i] == given[i], "MPI_Dims_create(%d, %d): fixed dims[%d] changed", nnodes, ndims, i);
            CHECK(given[i] || !last || got[i] <= last, "MPI_Dims_create(%d, %d): free dims increase", nnodes, ndims);
            if (!given[i])
                last = got[i];
        }
        CHECK_EQ(product, nnodes);
    }
#endif
    ++checked;
}

static void all_free(int nnodes, int ndims)
{
    int dims[TM_MAX_DIMS] = {0};
    expect(nnodes, ndims, dims);
}

#ifdef PLEXUS_MPI
#define CHECK_FAILS(call, cls) CHECK_CLASS(call, cls)
#elif defined(MPICH_VERSION) /* MPICH 4.0.2 accepts nnodes 0 */
#define CHECK_FAILS(call, cls) CHECK((call) != MPI_SUCCESS || (cls) == MPI_ERR_ARG, #call " succeeded")
#else
#define CHECK_FAILS(call, cls) CHECK((call) != MPI_SUCCESS, #call " succeeded")
#endif

static void errors(void)
{
    int dims[4];
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    dims[0] = 5, dims[1] = 0;
    CHECK_FAILS(MPI_Dims_create(12, 2, dims), MPI_ERR_DIMS); /* 5 does not divide 12 */
    dims[0] = 3, dims[1] = 5;
    CHECK_FAILS(MPI_Dims_create(12, 2, dims), MPI_ERR_DIMS); /* nothing free, 15 != 12 */
    dims[0] = 24, dims[1] = 0;
    CHECK_FAILS(MPI_Dims_create(12, 2, dims), MPI_ERR_DIMS); /* more than nnodes */
    dims[0] = -2, dims[1] = 0;
    CHECK_FAILS(MPI_Dims_create(12, 2, dims), MPI_ERR_DIMS);
    CHECK_FAILS(MPI_Dims_create(12, -1, dims), MPI_ERR_DIMS);
    dims[0] = 0;
    CHECK_FAILS(MPI_Dims_create(0, 1, dims), MPI_ERR_ARG);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
}

int main(int argc, char **argv)
{
    static const int big[] = {60, 64, 72, 96, 100, 120, 128, 144, 210, 256, 360};
    int n, d, i;
    tu_init(&argc, &argv);
    for (n = 1; n <= 48; ++n)
        for (d = 1; d <= 3; ++d)
            all_free(n, d);
    for (n = 1; n <= 24; ++n)
        all_free(n, 4);
    for (i = 0; i < (int)(sizeof big / sizeof big[0]); ++i) {
        all_free(big[i], 2);
        all_free(big[i], 3);
    }
    all_free(720, 2);
    all_free(1024, 2);
    all_free(1, 6);
    {
        int a[3] = {2, 0, 0}, b[3] = {0, 3, 0}, c[3] = {0, 0, 5}, e[3] = {2, 3, 4}, f[2] = {1, 0};
        expect(48, 3, a);
        expect(36, 3, b);
        expect(60, 3, c);
        expect(24, 3, e);
        expect(7, 2, f);
    }
    CHECK_MPI(MPI_Dims_create(1, 0, NULL)); /* no dimensions: a grid of one process */
    errors();
    return tu_finish("%d factorizations equal the model's; misuses give MPI_ERR_DIMS / MPI_ERR_ARG", checked);
}
