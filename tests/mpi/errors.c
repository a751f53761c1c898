/* Invalid arguments under MPI_ERRORS_RETURN on MPI_COMM_WORLD: each call returns an error whose
 * MPI_Error_class is the one MPI names, and MPI_Error_string of the code says something (a
 * non-empty string shorter than MPI_MAX_ERROR_STRING). Ranks: MPI_COMM_WORLD's size and -5
 * (or the next negative that is not MPI_PROC_NULL or MPI_ANY_SOURCE), MPI_ANY_SOURCE as a
 * destination. Tags: -3, -32768, MPI_ANY_TAG for a send, MPI_TAG_UB + 1 where the attribute
 * exists. Count -1; MPI_DATATYPE_NULL; MPI_COMM_NULL; MPI_REQUEST_NULL where a request must be
 * real (Start, Request_free); MPI_ERR_TRUNCATE. Every rank checks on its own (an invalid call
 * communicates with nobody); afterwards a valid exchange around the ring still works. */
#include "test_util.h"

#include <limits.h>

/* MPI_TAG_UB is an attribute (MPI_Comm_get_attr); an mpi.h without the key skips that check at
 * compile time, a library without the function at run time (the weak reference is NULL). */
#if defined(MPI_TAG_UB) || defined(OPEN_MPI)
#define HAVE_TAG_UB_KEY 1
int MPI_Comm_get_attr(MPI_Comm comm, int comm_keyval, void *attribute_val, int *flag);
#pragma weak MPI_Comm_get_attr
#endif

static int checks;

static void expect_error_at(const char *file, int line, int rc, int want, const char *call)
{
    char text[MPI_MAX_ERROR_STRING + 1];
    int len = -1, cls = tu_error_class(rc);
    if (rc == MPI_SUCCESS || cls != want)
        tu_fail(file, line, call, "returned %d of class %d, expected an error of class %d", rc,
                cls, want);
    memset(text, 0, sizeof text);
    int src = MPI_Error_string(rc, text, &len);
    if (src != MPI_SUCCESS || len <= 0 || len >= MPI_MAX_ERROR_STRING ||
        (size_t)len != strlen(text))
        tu_fail(file, line, call,
                "MPI_Error_string(%d) returned %d, length %d, text '%s': expected a non-empty "
                "message of that length",
                rc, src, len, text);
    ++checks;
}

#define EXPECT(call, cls) expect_error_at(__FILE__, __LINE__, (call), (cls), #call)

static int invalid_negative_rank(void)
{
    int r = -5;
    while (r == MPI_PROC_NULL || r == MPI_ANY_SOURCE)
        --r;
    return r;
}

static void invalid_ranks(void)
{
    unsigned char buf[8] = {0};
    MPI_Request req;
    MPI_Status st;
    int flag;
    int bad[2] = {tu_size, invalid_negative_rank()};
    for (int i = 0; i < 2; ++i) {
        int r = bad[i];
        EXPECT(MPI_Send(buf, 1, MPI_BYTE, r, 0, MPI_COMM_WORLD), MPI_ERR_RANK);
        EXPECT(MPI_Ssend(buf, 1, MPI_BYTE, r, 0, MPI_COMM_WORLD), MPI_ERR_RANK);
        EXPECT(MPI_Isend(buf, 1, MPI_BYTE, r, 0, MPI_COMM_WORLD, &req), MPI_ERR_RANK);
        EXPECT(MPI_Send_init(buf, 1, MPI_BYTE, r, 0, MPI_COMM_WORLD, &req), MPI_ERR_RANK);
        EXPECT(MPI_Recv(buf, 1, MPI_BYTE, r, 0, MPI_COMM_WORLD, &st), MPI_ERR_RANK);
        EXPECT(MPI_Irecv(buf, 1, MPI_BYTE, r, 0, MPI_COMM_WORLD, &req), MPI_ERR_RANK);
        EXPECT(MPI_Probe(r, 0, MPI_COMM_WORLD, &st), MPI_ERR_RANK);
        EXPECT(MPI_Iprobe(r, 0, MPI_COMM_WORLD, &flag, &st), MPI_ERR_RANK);
        EXPECT(MPI_Sendrecv(buf, 1, MPI_BYTE, r, 0, buf + 1, 1, MPI_BYTE, tu_rank, 0,
                            MPI_COMM_WORLD, &st),
               MPI_ERR_RANK);
    }
    EXPECT(MPI_Send(buf, 1, MPI_BYTE, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD), MPI_ERR_RANK);
}

static void invalid_tags(void)
{
    unsigned char buf[8] = {0};
    MPI_Request req;
    MPI_Status st;
    int flag;
    EXPECT(MPI_Send(buf, 1, MPI_BYTE, tu_rank, -3, MPI_COMM_WORLD), MPI_ERR_TAG);
    EXPECT(MPI_Send(buf, 1, MPI_BYTE, tu_rank, -32768, MPI_COMM_WORLD), MPI_ERR_TAG);
    EXPECT(MPI_Send(buf, 1, MPI_BYTE, tu_rank, MPI_ANY_TAG, MPI_COMM_WORLD), MPI_ERR_TAG);
    EXPECT(MPI_Isend(buf, 1, MPI_BYTE, tu_rank, -3, MPI_COMM_WORLD, &req), MPI_ERR_TAG);
    EXPECT(MPI_Recv(buf, 1, MPI_BYTE, tu_rank, -3, MPI_COMM_WORLD, &st), MPI_ERR_TAG);
    EXPECT(MPI_Irecv(buf, 1, MPI_BYTE, tu_rank, -32768, MPI_COMM_WORLD, &req), MPI_ERR_TAG);
    EXPECT(MPI_Probe(tu_rank, -3, MPI_COMM_WORLD, &st), MPI_ERR_TAG);
    EXPECT(MPI_Iprobe(tu_rank, -3, MPI_COMM_WORLD, &flag, &st), MPI_ERR_TAG);
}

/* Returns whether MPI_TAG_UB could be read (and was checked). */
static int tag_upper_bound(void)
{
#ifdef HAVE_TAG_UB_KEY
    if (!MPI_Comm_get_attr)
        return 0;
    int *ub = NULL, flag = 0;
    CHECK_MPI(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &ub, &flag));
    CHECK(flag && ub, "MPI_COMM_WORLD has no MPI_TAG_UB attribute (flag %d)", flag);
    CHECK(*ub >= 32767, "MPI_TAG_UB is %d; MPI requires at least 32767", *ub);
    /* the bound itself is a valid tag ... */
    unsigned char out = 42, in = 0;
    MPI_Status st;
    CHECK_MPI(MPI_Sendrecv(&out, 1, MPI_BYTE, tu_rank, *ub, &in, 1, MPI_BYTE, tu_rank, *ub,
                           MPI_COMM_WORLD, &st));
    CHECK(in == 42 && st.MPI_TAG == *ub, "a message with tag MPI_TAG_UB (%d) came as tag %d",
          *ub, st.MPI_TAG);
    /* ... one more is not */
    if (*ub < INT_MAX)
        EXPECT(MPI_Send(&out, 1, MPI_BYTE, tu_rank, *ub + 1, MPI_COMM_WORLD), MPI_ERR_TAG);
    return 1;
#else
    return 0;
#endif
}

static void invalid_counts_types_comms(void)
{
    unsigned char buf[8] = {0};
    MPI_Request req;
    MPI_Status st;
    int n;
    EXPECT(MPI_Send(buf, -1, MPI_BYTE, tu_rank, 0, MPI_COMM_WORLD), MPI_ERR_COUNT);
    EXPECT(MPI_Isend(buf, -1, MPI_BYTE, tu_rank, 0, MPI_COMM_WORLD, &req), MPI_ERR_COUNT);
    EXPECT(MPI_Recv(buf, -1, MPI_BYTE, tu_rank, 0, MPI_COMM_WORLD, &st), MPI_ERR_COUNT);
    EXPECT(MPI_Irecv(buf, -1, MPI_BYTE, tu_rank, 0, MPI_COMM_WORLD, &req), MPI_ERR_COUNT);

    EXPECT(MPI_Send(buf, 1, MPI_DATATYPE_NULL, tu_rank, 0, MPI_COMM_WORLD), MPI_ERR_TYPE);
    EXPECT(MPI_Isend(buf, 1, MPI_DATATYPE_NULL, tu_rank, 0, MPI_COMM_WORLD, &req), MPI_ERR_TYPE);
    EXPECT(MPI_Recv(buf, 1, MPI_DATATYPE_NULL, tu_rank, 0, MPI_COMM_WORLD, &st), MPI_ERR_TYPE);
    EXPECT(MPI_Irecv(buf, 1, MPI_DATATYPE_NULL, tu_rank, 0, MPI_COMM_WORLD, &req), MPI_ERR_TYPE);

    /* (not Probe/Iprobe: Open MPI raises those on MPI_COMM_NULL's own handler, which is fatal) */
    EXPECT(MPI_Send(buf, 1, MPI_BYTE, 0, 0, MPI_COMM_NULL), MPI_ERR_COMM);
    EXPECT(MPI_Isend(buf, 1, MPI_BYTE, 0, 0, MPI_COMM_NULL, &req), MPI_ERR_COMM);
    EXPECT(MPI_Recv(buf, 1, MPI_BYTE, 0, 0, MPI_COMM_NULL, &st), MPI_ERR_COMM);
    EXPECT(MPI_Irecv(buf, 1, MPI_BYTE, 0, 0, MPI_COMM_NULL, &req), MPI_ERR_COMM);
    EXPECT(MPI_Comm_rank(MPI_COMM_NULL, &n), MPI_ERR_COMM);
    EXPECT(MPI_Comm_size(MPI_COMM_NULL, &n), MPI_ERR_COMM);
}

static void invalid_requests(void)
{
    MPI_Request req = MPI_REQUEST_NULL;
    EXPECT(MPI_Start(&req), MPI_ERR_REQUEST);
    req = MPI_REQUEST_NULL;
    EXPECT(MPI_Request_free(&req), MPI_ERR_REQUEST);
    /* waiting for MPI_REQUEST_NULL is not an error */
    req = MPI_REQUEST_NULL;
    CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
}

static void truncated(void)
{
    unsigned char out[100], in[50 + TU_GUARD_SIZE];
    MPI_Request req;
    MPI_Status st;
    tu_fill(out, sizeof out, 1);
    memset(in, TU_GUARD_BYTE, sizeof in);
    CHECK_MPI(MPI_Isend(out, (int)sizeof out, MPI_BYTE, tu_rank, 5, MPI_COMM_WORLD, &req));
    EXPECT(MPI_Recv(in, 50, MPI_BYTE, tu_rank, 5, MPI_COMM_WORLD, &st), MPI_ERR_TRUNCATE);
    CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
    CHECK_GUARD(in + 50, TU_GUARD_SIZE, "truncated receive");
}

/* Every error class of point-to-point is its own class and has a message. */
static void classes_and_strings(void)
{
    static const int classes[] = {MPI_SUCCESS,      MPI_ERR_BUFFER,  MPI_ERR_COUNT,
                                  MPI_ERR_TYPE,     MPI_ERR_TAG,     MPI_ERR_COMM,
                                  MPI_ERR_RANK,     MPI_ERR_REQUEST, MPI_ERR_ARG,
                                  MPI_ERR_UNKNOWN,  MPI_ERR_TRUNCATE, MPI_ERR_OTHER,
                                  MPI_ERR_INTERN,   MPI_ERR_PENDING, MPI_ERR_IN_STATUS};
    for (size_t i = 0; i < sizeof classes / sizeof classes[0]; ++i) {
        char text[MPI_MAX_ERROR_STRING];
        int cls = -1, len = -1;
        CHECK_MPI(MPI_Error_class(classes[i], &cls));
        CHECK(cls == classes[i], "MPI_Error_class(%d) is %d, expected itself", classes[i], cls);
        CHECK(classes[i] <= MPI_ERR_LASTCODE, "error class %d is above MPI_ERR_LASTCODE (%d)",
              classes[i], MPI_ERR_LASTCODE);
        CHECK_MPI(MPI_Error_string(classes[i], text, &len));
        CHECK(len > 0 && (size_t)len == strlen(text),
              "MPI_Error_string(%d): length %d for '%s'", classes[i], len, text);
    }
}

static void still_works(void)
{
    int right = (tu_rank + 1) % tu_size, left = (tu_rank + tu_size - 1) % tu_size;
    unsigned char out[1000], in[1000];
    MPI_Status st;
    tu_fill(out, sizeof out, tu_seed(tu_rank, right, sizeof out, 0));
    CHECK_MPI(MPI_Sendrecv(out, (int)sizeof out, MPI_BYTE, right, 7, in, (int)sizeof in,
                           MPI_BYTE, left, 7, MPI_COMM_WORLD, &st));
    CHECK_STATUS(&st, left, 7, sizeof in);
    VERIFY(in, sizeof in, tu_seed(left, tu_rank, sizeof in, 0), "exchange after the errors");
}

int main(int argc, char **argv)
{
    tu_init(&argc, &argv);
    tu_require_ranks(1, 0);
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    invalid_ranks();
    invalid_tags();
    int have_tag_ub = tag_upper_bound();
    invalid_counts_types_comms();
    invalid_requests();
    truncated();
    classes_and_strings();
    still_works();
    return tu_finish("%d invalid calls returned their error class with a message%s", checks,
                     have_tag_ub ? ", MPI_TAG_UB + 1 included"
                                 : "; MPI_TAG_UB not checked (no MPI_Comm_get_attr)");
}
