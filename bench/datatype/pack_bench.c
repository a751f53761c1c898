/* Pack/unpack throughput of derived datatypes (bench/datatype/README.md): for vector types
 * (blocks of 1, 8, 64 and 1024 doubles, stride twice the block), an indexed type with a
 * fixed-seed random pattern of block lengths and gaps, an indexed_block type with random
 * gaps, and the two strided faces of a 3-D array (MPI_Type_create_subarray), each built as one item of S bytes of data (S = 64 B ... 16 MiB), rank 0 times
 *   pack:     MPI_Pack of the item into a contiguous buffer,
 *   unpack:   MPI_Unpack of that buffer back into the layout,
 * and ranks 0 and 1 time
 *   sendrecv: a ping-pong of the item (non-contiguous -> non-contiguous both ways), one-way time
 *             = half the round trip.
 * Every measurement: a warm-up, then R runs of N repetitions each (N so that a run moves about
 * 32 MiB, 3 <= N <= 20000; p2p 8 MiB, 3 <= N <= 2000), MPI_Wtime around each run; the median run
 * is reported. The data is checked once per type and size (pack, unpack and a transfer compare
 * element by element with the layout) before timing. Output, rank 0, one line per point:
 *   RESULT type size op MB/s ns-per-element
 * (MB = 10^6 bytes of packed data; an element is one double). MPI-2.2 calls only (no
 * collectives: the ranks meet with MPI_Sendrecv), so it runs on Plexus, Open MPI and MPICH.
 *
 * usage: pack_bench [--quick] [--runs R] [--max-size BYTES] [--min-size BYTES] [--types LIST]
 */
#include <mpi.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_numbers.h"

static int rank, nranks;

static void die(const char *what)
{
    fprintf(stderr, "pack_bench: rank %d: %s\n", rank, what);
    MPI_Abort(MPI_COMM_WORLD, 1);
    exit(1);
}

#define MPI_OK(call)                                                                              \
    do {                                                                                          \
        if ((call) != MPI_SUCCESS)                                                                \
            die(#call " failed");                                                                 \
    } while (0)

static void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p)
        die("out of memory");
    return p;
}

/* xorshift64*: a fixed-seed pattern that is the same in every implementation's run. */
static uint64_t rng_state;
static uint32_t rnd(uint32_t n)
{
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return (uint32_t)((rng_state * 0x2545F4914F6CDD1DULL) >> 33) % n;
}

/* One item of `bytes` bytes of doubles in the layout `kind`; *span = doubles the layout covers
 * from displacement 0 (all displacements are >= 0). Returns 0 when the size is below one
 * block of the layout. */
static int make_type(const char *kind, size_t bytes, MPI_Datatype *t, size_t *span)
{
    int n = (int)(bytes / sizeof(double));
    if (strncmp(kind, "vector", 6) == 0) {
        int block = atoi(kind + 6);
        if (block <= 0 || n < block)
            return 0;
        int count = n / block;
        MPI_OK(MPI_Type_vector(count, block, 2 * block, MPI_DOUBLE, t));
        *span = (size_t)(count - 1) * 2 * block + block;
    } else if (strcmp(kind, "indexed") == 0) {
        /* block lengths 1..16 doubles, gaps 0..16 doubles: irregular, fixed seed */
        int cap = n + 1, count = 0, total = 0, at = 0;
        int *bl = xmalloc((size_t)cap * sizeof *bl), *disp = xmalloc((size_t)cap * sizeof *disp);
        rng_state = 0x9e3779b97f4a7c15ULL;
        while (total < n) {
            int len = 1 + (int)rnd(16);
            if (len > n - total)
                len = n - total;
            at += (int)rnd(17);
            bl[count] = len;
            disp[count] = at;
            at += len;
            total += len;
            ++count;
        }
        MPI_OK(MPI_Type_indexed(count, bl, disp, MPI_DOUBLE, t));
        *span = (size_t)at;
        free(bl);
        free(disp);
    } else if (strcmp(kind, "indexed_block") == 0) {
        /* blocks of 4 doubles, gaps 0..12 doubles */
        if (n < 4)
            return 0;
        int count = n / 4, at = 0;
        int *disp = xmalloc((size_t)count * sizeof *disp);
        rng_state = 0x2545f4914f6cdd1dULL;
        for (int i = 0; i < count; ++i) {
            at += (int)rnd(13);
            disp[i] = at;
            at += 4;
        }
        MPI_OK(MPI_Type_create_indexed_block(count, 4, disp, MPI_DOUBLE, t));
        *span = (size_t)at;
        free(disp);
    } else if (strcmp(kind, "face_x") == 0 || strcmp(kind, "face_y") == 0) {
        /* A 2-D face of a 3-D array of doubles (C order, dims Z x Y x X) as a halo exchange
         * sends it: face_x = Z x Y x 1 (single doubles X apart), face_y = Z x 1 x X (rows of X
         * doubles, Y * X apart). The face holds n doubles (n = 2^k: Z = 2^(k/2), the other side
         * n / Z); the third dimension is 32 deep, so the array is 32 n doubles: faces above
         * 2 MiB (a 64 MiB array) are skipped. */
        if (n < 4 || (n & (n - 1)) != 0 || (size_t)n * 32 > ((size_t)8 << 20))
            return 0;
        int k = 0;
        while ((1 << k) < n)
            ++k;
        int z = 1 << (k / 2), side = n / z, x_face = kind[5] == 'x';
        int sizes[3] = {z, x_face ? side : 32, x_face ? 32 : side};
        int subsizes[3] = {z, x_face ? side : 1, x_face ? 1 : side};
        int starts[3] = {0, x_face ? 0 : 30, x_face ? 30 : 0}; /* the last interior plane */
        MPI_OK(MPI_Type_create_subarray(3, sizes, subsizes, starts, MPI_ORDER_C, MPI_DOUBLE, t));
        *span = (size_t)n * 32;
    } else {
        die("unknown type kind (valid: vector1, vector8, vector64, vector1024, indexed, "
            "indexed_block, face_x, face_y)");
    }
    MPI_OK(MPI_Type_commit(t));
    return 1;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static void sync_pair(void)
{
    if (nranks < 2)
        return;
    int peer = rank == 0 ? 1 : 0;
    if (rank > 1)
        return;
    MPI_OK(MPI_Sendrecv(NULL, 0, MPI_BYTE, peer, 99, NULL, 0, MPI_BYTE, peer, 99, MPI_COMM_WORLD,
                        MPI_STATUS_IGNORE));
}

/* Checks pack/unpack/transfer once: the packed stream is the layout's doubles in order. */
static void verify(MPI_Datatype t, size_t bytes, double *src, double *dst, size_t span,
                   unsigned char *packed, int packsize)
{
    int n = (int)(bytes / sizeof(double)), pos = 0;
    for (size_t i = 0; i < span; ++i) {
        src[i] = (double)i;
        dst[i] = -1;
    }
    if (rank == 0) {
        MPI_OK(MPI_Pack(src, 1, t, packed, packsize, &pos, MPI_COMM_WORLD));
        /* unpacked as doubles: increasing, and n of them */
        double *flat = xmalloc((size_t)n * sizeof *flat);
        int p2 = 0;
        MPI_OK(MPI_Unpack(packed, pos, &p2, flat, n, MPI_DOUBLE, MPI_COMM_WORLD));
        for (int i = 1; i < n; ++i)
            if (!(flat[i] > flat[i - 1]))
                die("packed data is not the layout's doubles in order");
        p2 = 0;
        MPI_OK(MPI_Unpack(packed, pos, &p2, dst, 1, t, MPI_COMM_WORLD));
        int moved = 0;
        for (size_t i = 0; i < span; ++i) {
            if (dst[i] != -1 && dst[i] != src[i])
                die("unpack put a value in the wrong place");
            moved += dst[i] != -1;
        }
        if (moved != n)
            die("unpack did not fill exactly the layout's elements");
        free(flat);
    }
    if (nranks >= 2 && rank <= 1) {
        for (size_t i = 0; i < span; ++i)
            dst[i] = -1;
        if (rank == 0)
            MPI_OK(MPI_Send(src, 1, t, 1, 7, MPI_COMM_WORLD));
        else {
            MPI_OK(MPI_Recv(dst, 1, t, 0, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
            int moved = 0;
            for (size_t i = 0; i < span; ++i) {
                if (dst[i] != -1 && dst[i] != src[i])
                    die("a received value is in the wrong place");
                moved += dst[i] != -1;
            }
            if (moved != n)
                die("the receive did not fill exactly the layout's elements");
        }
    }
}

static int reps_for(size_t bytes, size_t target, int most)
{
    size_t r = target / (bytes ? bytes : 1);
    if (r < 3)
        r = 3;
    if (r > (size_t)most)
        r = (size_t)most;
    return (int)r;
}

static void report(const char *kind, size_t bytes, const char *op, double seconds)
{
    double mbps = (double)bytes / seconds / 1e6;
    double ns = seconds * 1e9 / ((double)bytes / sizeof(double));
    printf("RESULT %s %zu %s %.2f %.4f\n", kind, bytes, op, mbps, ns);
    fflush(stdout);
}

static void bench_one(const char *kind, size_t bytes, int runs)
{
    MPI_Datatype t;
    size_t span = 0;
    if (!make_type(kind, bytes, &t, &span))
        return;
    int size = 0, packsize = 0;
    MPI_OK(MPI_Type_size(t, &size));
    if ((size_t)size != bytes)
        die("type size differs from the size asked for");
    MPI_OK(MPI_Pack_size(1, t, MPI_COMM_WORLD, &packsize));
    double *src = xmalloc(span * sizeof(double)), *dst = xmalloc(span * sizeof(double));
    unsigned char *packed = xmalloc((size_t)packsize);
    double *times = xmalloc((size_t)runs * sizeof(double));
    verify(t, bytes, src, dst, span, packed, packsize);

    if (rank == 0) {
        int reps = reps_for(bytes, (size_t)32 << 20, 20000), pos = 0;
        for (int op = 0; op < 2; ++op) {
            for (int r = -1; r < runs; ++r) { /* run -1: warm-up */
                double t0 = MPI_Wtime();
                for (int i = 0; i < reps; ++i) {
                    pos = 0;
                    if (op == 0)
                        MPI_Pack(src, 1, t, packed, packsize, &pos, MPI_COMM_WORLD);
                    else
                        MPI_Unpack(packed, packsize, &pos, dst, 1, t, MPI_COMM_WORLD);
                }
                double dt = (MPI_Wtime() - t0) / reps;
                if (r >= 0)
                    times[r] = dt;
            }
            report(kind, bytes, op == 0 ? "pack" : "unpack", median(times, runs));
        }
    }
    if (nranks >= 2 && rank <= 1) {
        int reps = reps_for(bytes, (size_t)8 << 20, 2000), peer = 1 - rank;
        for (int r = -1; r < runs; ++r) {
            sync_pair();
            double t0 = MPI_Wtime();
            for (int i = 0; i < reps; ++i) {
                if (rank == 0) {
                    MPI_Send(src, 1, t, peer, 1, MPI_COMM_WORLD);
                    MPI_Recv(dst, 1, t, peer, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                } else {
                    MPI_Recv(dst, 1, t, peer, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                    MPI_Send(src, 1, t, peer, 1, MPI_COMM_WORLD);
                }
            }
            double dt = (MPI_Wtime() - t0) / reps / 2;
            if (r >= 0)
                times[r] = dt;
        }
        if (rank == 0)
            report(kind, bytes, "sendrecv", median(times, runs));
    }
    sync_pair();
    MPI_OK(MPI_Type_free(&t));
    free(src);
    free(dst);
    free(packed);
    free(times);
}

/* A positive count up to max (k/M suffixes), or the run ends saying which option was wrong: a
 * size of 0 would make the size loop below run forever. */
static size_t size_arg(const char *option, const char *text, size_t max)
{
    size_t v = 0;
    if (cli_parse_count(text, max, &v) || v == 0) {
        char why[256];
        snprintf(why, sizeof why, "%s: '%s' is not a number from 1 to %zu (k and M suffixes allowed)", option, text,
                 max);
        die(why);
    }
    return v;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nranks);
    int quick = 0, runs = 0;
    size_t max_size = (size_t)16 << 20, min_size = 64;
    const char *types = "vector1,vector8,vector64,vector1024,indexed,indexed_block,face_x,face_y";
    for (int i = 1; i < argc; ++i) {
        if (strcmp(argv[i], "--quick") == 0)
            quick = 1;
        else if (strcmp(argv[i], "--runs") == 0 && i + 1 < argc)
            runs = (int)size_arg("--runs", argv[++i], 1000);
        else if (strcmp(argv[i], "--max-size") == 0 && i + 1 < argc)
            max_size = size_arg("--max-size", argv[++i], (size_t)1 << 30);
        else if (strcmp(argv[i], "--min-size") == 0 && i + 1 < argc)
            min_size = size_arg("--min-size", argv[++i], (size_t)1 << 30);
        else if (strcmp(argv[i], "--types") == 0 && i + 1 < argc)
            types = argv[++i];
        else
            die("usage: pack_bench [--quick] [--runs R] [--max-size BYTES] [--min-size BYTES] "
                "[--types vector1,vector8,vector64,vector1024,indexed,indexed_block,face_x,face_y]");
    }
    if (runs <= 0)
        runs = quick ? 3 : 7;
    if (rank == 0) {
        char lib[MPI_MAX_LIBRARY_VERSION_STRING];
        int len = 0;
        MPI_Get_library_version(lib, &len);
        char *nl = strchr(lib, '\n');
        if (nl)
            *nl = '\0';
        printf("# %s\n# %d ranks, %d runs per point (median), sizes %zu..%zu B%s\n", lib, nranks,
               runs, min_size, max_size, quick ? " (quick: every 16x)" : " (every 4x)");
        fflush(stdout);
    }
    char *list = xmalloc(strlen(types) + 1);
    strcpy(list, types);
    for (char *kind = strtok(list, ","); kind; kind = strtok(NULL, ","))
        for (size_t s = min_size; s <= max_size; s *= quick ? 16 : 4)
            bench_one(kind, s, runs);
    free(list);
    MPI_Finalize();
    return 0;
}
