/* Every derived-datatype constructor in point-to-point, data verified byte by byte against the
 * test's own model of each type map (datatype_model.h, datatype_cases.h): contiguous, vector,
 * hvector, indexed, hindexed, indexed_block, struct (padding, negative displacements), resized
 * (count > 1 honours the extent; bounds sticky when nested), dup, and nested types (vector of
 * struct, indexed of vector, hvector with a negative stride of that).
 *
 * The ranks form a ring (each sends to rank + 1 and receives from rank - 1; 2-4 ranks), and
 * every type goes five ways: derived -> derived by Send/Recv, by Isend/Irecv + Waitall and by
 * Sendrecv; derived -> contiguous (received as its basic type, or for mixed structs as a struct
 * type of the same signature without holes); contiguous -> derived. A derived receive buffer starts as guard bytes: the type map's bytes
 * must hold the sender's data, every hole and the guards before and after must be untouched.
 * Status: Get_count and Get_elements in the receive type. Counts 0, 1 and 3; with --large, as
 * many items as make at least 1 MiB of packed data (rendezvous); with --boundaries, the counts
 * whose packed sizes fall just below and above btl_sm's eager limit and one and two of its
 * fragments (32 KiB less the PML's 16-byte headers), where a sender packs each message straight
 * into the fragment and the receiver unpacks each at its offset. Then MPI_BOTTOM with absolute
 * addresses (Get_address + struct / hindexed), both as the send and the receive buffer. */
#include "datatype_cases.h"

enum { M_SENDRECV_BLOCKING, M_NONBLOCKING, M_SENDRECV, M_TO_CONTIG, M_FROM_CONTIG, M_COUNT };
static const char *const mode_names[M_COUNT] = {
    "Send/Recv derived->derived", "Isend/Irecv derived->derived", "Sendrecv derived->derived",
    "derived -> contiguous", "contiguous -> derived"};

static int next_rank(void) { return (tu_rank + 1) % tu_size; }
static int prev_rank(void) { return (tu_rank + tu_size - 1) % tu_size; }
static long transfers;

/* One side of a transfer: a model, its MPI type and a count. */
typedef struct {
    const dm_model *m;
    MPI_Datatype t;
    int count;
} side;

/* Moves send (from this rank to the next) and recv (from the previous one) at once by `mode`,
 * and checks the received buffer and status against the models. */
static void transfer(const char *what, int mode, side snd, side rcv, int tag, long iter)
{
    dm_buf sbuf = dm_buf_alloc(snd.m, snd.count), rbuf = dm_buf_alloc(rcv.m, rcv.count);
    dm_buf_fill(&sbuf, tu_seed(tu_rank, next_rank(), (size_t)tag, iter));
    MPI_Status st;
    MPI_Request req[2];
    int to = next_rank(), from = prev_rank();
    switch (mode) {
    case M_NONBLOCKING:
        CHECK_MPI(MPI_Irecv(rbuf.base, rcv.count, rcv.t, from, tag, MPI_COMM_WORLD, &req[0]));
        CHECK_MPI(MPI_Isend(sbuf.base, snd.count, snd.t, to, tag, MPI_COMM_WORLD, &req[1]));
        {
            MPI_Status sts[2];
            CHECK_MPI(MPI_Waitall(2, req, sts));
            st = sts[0];
        }
        break;
    case M_SENDRECV:
        CHECK_MPI(MPI_Sendrecv(sbuf.base, snd.count, snd.t, to, tag, rbuf.base, rcv.count, rcv.t,
                               from, tag, MPI_COMM_WORLD, &st));
        break;
    default:
        /* Blocking: odd ranks receive first, so the ring cannot deadlock on rendezvous sends. */
        if (tu_rank % 2) {
            CHECK_MPI(MPI_Recv(rbuf.base, rcv.count, rcv.t, from, tag, MPI_COMM_WORLD, &st));
            CHECK_MPI(MPI_Send(sbuf.base, snd.count, snd.t, to, tag, MPI_COMM_WORLD));
        } else {
            CHECK_MPI(MPI_Send(sbuf.base, snd.count, snd.t, to, tag, MPI_COMM_WORLD));
            CHECK_MPI(MPI_Recv(rbuf.base, rcv.count, rcv.t, from, tag, MPI_COMM_WORLD, &st));
        }
    }

    /* What should have come: the previous rank's buffer (same pattern, its seed), its packed
     * stream scattered over our receive type map. */
    dm_buf theirs = dm_buf_alloc(snd.m, snd.count), want = dm_buf_alloc(rcv.m, rcv.count);
    dm_buf_fill(&theirs, tu_seed(from, tu_rank, (size_t)tag, iter));
    size_t bytes = (size_t)snd.m->size * (size_t)snd.count;
    unsigned char *stream = (unsigned char *)tu_malloc(bytes);
    CHECK_EQ(dm_gather(snd.m, snd.count, &theirs, stream, bytes), bytes);
    dm_scatter(rcv.m, rcv.count, &want, stream, bytes);
    char label[256];
    snprintf(label, sizeof label, "%s, %s, %d items -> %d items", what, mode_names[mode],
             snd.count, rcv.count);
    DM_COMPARE(rcv.m, rcv.count, &rbuf, &want, label);

    int count = -1, elements = -1;
    CHECK_EQ(st.MPI_SOURCE, from);
    CHECK_EQ(st.MPI_TAG, tag);
    CHECK_MPI(MPI_Get_count(&st, rcv.t, &count));
    CHECK_MPI(MPI_Get_elements(&st, rcv.t, &elements));
    CHECK(count == rcv.count && elements == rcv.m->elements * rcv.count,
          "%s: Get_count %d, Get_elements %d; expected %d and %ld", label, count, elements,
          rcv.count, (long)(rcv.m->elements * rcv.count));
    ++transfers;
    free(stream);
    dm_buf_free(&sbuf);
    dm_buf_free(&rbuf);
    dm_buf_free(&theirs);
    dm_buf_free(&want);
}

static void run_case(const dc_case *c, int idx, int count)
{
    /* The contiguous view of count items: the basic type, count * size / elem_size of them. */
    int nelem = (int)(c->model.size * count / c->elem_size);
    dm_model contig = dm_bytes(c->elem_size);
    contig.elements = c->elem_elements;
    side derived = {&c->model, c->type, count}, flat = {&contig, c->elem, nelem};
    for (int mode = 0; mode < M_COUNT; ++mode) {
        if (c->send_only && mode != M_TO_CONTIG)
            continue;
        int tag = idx * 16 + mode;
        side snd = mode == M_FROM_CONTIG ? flat : derived;
        side rcv = mode == M_TO_CONTIG ? flat : derived;
        transfer(c->name, mode, snd, rcv, tag, count);
    }
    dm_free(&contig);
}

/* ------------------------------------------------------------------ MPI_BOTTOM */

/* Two separately allocated arrays described by absolute addresses (Get_address, relative to
 * MPI_BOTTOM): a struct type sends them with buffer MPI_BOTTOM, an hindexed type receives into
 * two other arrays the same way, and each also goes to and from a contiguous buffer. */
static void bottom(void)
{
    enum { NI = 5, ND = 3 };
    const size_t packed = NI * sizeof(int) + ND * sizeof(double);
    int *ia = (int *)tu_malloc(NI * sizeof(int));
    double *da = (double *)tu_malloc(ND * sizeof(double));
    int *ib = (int *)tu_malloc(NI * sizeof(int));
    int *ic = (int *)tu_malloc(NI * sizeof(int));
    unsigned char *flat = (unsigned char *)tu_malloc(packed), *want = (unsigned char *)tu_malloc(packed);
    MPI_Aint a_i, a_i2, a_d, a_b, a_c;
    CHECK_MPI(MPI_Get_address(ia, &a_i));
    CHECK_MPI(MPI_Get_address(&ia[2], &a_i2));
    CHECK_MPI(MPI_Get_address(da, &a_d));
    CHECK_MPI(MPI_Get_address(ib, &a_b));
    CHECK_MPI(MPI_Get_address(ic, &a_c));
    CHECK_EQ(a_i2 - a_i, 2 * (MPI_Aint)sizeof(int));

    MPI_Datatype st, hi;
    {
        int bl[2] = {NI, ND};
        MPI_Aint disp[2] = {a_i, a_d};
        MPI_Datatype types[2] = {MPI_INT, MPI_DOUBLE};
        CHECK_MPI(MPI_Type_create_struct(2, bl, disp, types, &st));
        CHECK_MPI(MPI_Type_commit(&st));
    }
    {
        /* receive: 5 ints, the first 3 into ib, the last 2 into ic[1..2]; then 3 doubles
         * would not fit an int type, so hindexed covers the ints and the doubles go to flat */
        int bl[2] = {3, 2};
        MPI_Aint disp[2] = {a_b, a_c + (MPI_Aint)sizeof(int)};
        CHECK_MPI(MPI_Type_create_hindexed(2, bl, disp, MPI_INT, &hi));
        CHECK_MPI(MPI_Type_commit(&hi));
    }
    int to = next_rank(), from = prev_rank(), tag = 900;
    MPI_Request req;
    MPI_Status s;

    /* struct at MPI_BOTTOM -> contiguous bytes */
    tu_fill(ia, NI * sizeof(int), tu_seed(tu_rank, to, 1, 900));
    tu_fill(da, ND * sizeof(double), tu_seed(tu_rank, to, 2, 900));
    memset(flat, TU_GUARD_BYTE, packed);
    CHECK_MPI(MPI_Irecv(flat, (int)packed, MPI_BYTE, from, tag, MPI_COMM_WORLD, &req));
    CHECK_MPI(MPI_Send(MPI_BOTTOM, 1, st, to, tag, MPI_COMM_WORLD));
    CHECK_MPI(MPI_Wait(&req, &s));
    tu_fill(want, NI * sizeof(int), tu_seed(from, tu_rank, 1, 900));
    tu_fill(want + NI * sizeof(int), ND * sizeof(double), tu_seed(from, tu_rank, 2, 900));
    CHECK(memcmp(flat, want, packed) == 0,
          "struct of absolute addresses sent from MPI_BOTTOM: received bytes differ");
    ++transfers;

    /* struct at MPI_BOTTOM -> struct at MPI_BOTTOM (the arrays are overwritten by the
     * previous rank's data) */
    int *isave = (int *)tu_malloc(NI * sizeof(int));
    memcpy(isave, ia, NI * sizeof(int));
    unsigned char sendcopy[NI * sizeof(int) + ND * sizeof(double)];
    memcpy(sendcopy, ia, NI * sizeof(int));
    memcpy(sendcopy + NI * sizeof(int), da, ND * sizeof(double));
    /* send from a packed copy so receiving into ia/da does not race with sending from them */
    CHECK_MPI(MPI_Irecv(MPI_BOTTOM, 1, st, from, tag + 1, MPI_COMM_WORLD, &req));
    CHECK_MPI(MPI_Send(sendcopy, (int)packed, MPI_BYTE, to, tag + 1, MPI_COMM_WORLD));
    CHECK_MPI(MPI_Wait(&req, &s));
    CHECK(memcmp(ia, want, NI * sizeof(int)) == 0 &&
              memcmp(da, want + NI * sizeof(int), ND * sizeof(double)) == 0,
          "contiguous bytes received into a struct of absolute addresses at MPI_BOTTOM differ");
    int count = -1;
    CHECK_MPI(MPI_Get_elements(&s, st, &count));
    CHECK_EQ(count, NI + ND);
    ++transfers;
    free(isave);

    /* ints from a contiguous buffer into hindexed at MPI_BOTTOM: ib[0..2], ic[1..2]; the rest of
     * ib and ic untouched */
    int ints[NI];
    tu_fill(ints, sizeof ints, tu_seed(tu_rank, to, 3, 900));
    memset(ib, TU_GUARD_BYTE, NI * sizeof(int));
    memset(ic, TU_GUARD_BYTE, NI * sizeof(int));
    CHECK_MPI(MPI_Sendrecv(ints, NI, MPI_INT, to, tag + 2, MPI_BOTTOM, 1, hi, from, tag + 2,
                           MPI_COMM_WORLD, &s));
    int theirs[NI], gb[NI], gc[NI];
    tu_fill(theirs, sizeof theirs, tu_seed(from, tu_rank, 3, 900));
    memset(gb, TU_GUARD_BYTE, sizeof gb);
    memset(gc, TU_GUARD_BYTE, sizeof gc);
    memcpy(gb, theirs, 3 * sizeof(int));
    memcpy(gc + 1, theirs + 3, 2 * sizeof(int));
    CHECK(memcmp(ib, gb, sizeof gb) == 0 && memcmp(ic, gc, sizeof gc) == 0,
          "ints received into hindexed of absolute addresses at MPI_BOTTOM: wrong bytes or "
          "bytes outside the type map written");
    CHECK_MPI(MPI_Get_count(&s, hi, &count));
    CHECK_EQ(count, 1);
    ++transfers;

    CHECK_MPI(MPI_Type_free(&st));
    CHECK_MPI(MPI_Type_free(&hi));
    free(ia);
    free(da);
    free(ib);
    free(ic);
    free(flat);
    free(want);
}

int main(int argc, char **argv)
{
    tu_init(&argc, &argv);
    tu_require_ranks(2, 4);
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    int large = argc > 1 && strcmp(argv[1], "--large") == 0;
    int boundaries = argc > 1 && strcmp(argv[1], "--boundaries") == 0;

    dc_case cases[DC_MAX];
    int n = dc_build_all(cases);
    size_t min_bytes = (size_t)1 << 20;
    long large_bytes = 0;
    for (int i = 0; i < n; ++i) {
        if (boundaries) {
            /* btl_sm's defaults: 32 KiB messages, 16-byte match and fragment headers */
            static const size_t edges[] = {32768 - 16, 2 * (32768 - 16)};
            int last = -1;
            for (int e = 0; e < 2; ++e) {
                int below = (int)(edges[e] / (size_t)cases[i].model.size);
                for (int count = below; count <= below + 1; ++count)
                    if (count > last && count > 0) {
                        run_case(&cases[i], i, count);
                        last = count;
                    }
            }
        } else if (large) {
            /* at least 1 MiB packed: rendezvous in every implementation */
            int count = (int)((min_bytes + (size_t)cases[i].model.size - 1) / (size_t)cases[i].model.size);
            run_case(&cases[i], i, count);
            large_bytes += (long)count * cases[i].model.size;
        } else {
            static const int counts[] = {0, 1, 3};
            for (int k = 0; k < 3; ++k)
                run_case(&cases[i], i, counts[k]);
        }
    }
    if (!large && !boundaries)
        bottom();
    dc_free_all(cases, n);
    if (boundaries)
        return tu_finish("%d derived types with packed sizes just below and above one eager "
                         "message, one and two fragments, sent five ways: %ld transfers verified "
                         "byte by byte with holes and guards", n, transfers);
    if (large)
        return tu_finish("%d derived types (every constructor, nested, negative strides, resized) "
                         "each >= 1 MiB packed (%ld MiB in all), sent five ways "
                         "(Send/Recv, Isend/Irecv, Sendrecv, to and from contiguous), %ld "
                         "transfers verified byte by byte with holes and guards",
                         n, large_bytes >> 20, transfers);
    return tu_finish("%d derived types (every constructor, nested, negative strides and "
                     "displacements, resized, dup) with counts 0, 1, 3 sent five ways, and "
                     "MPI_BOTTOM with absolute addresses: %ld transfers verified byte by byte "
                     "with holes and guards, Get_count and Get_elements",
                     n, transfers);
}
