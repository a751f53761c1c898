/* Generalized requests (MPI-2.2 12.2) with every completion call, on every rank (1-4):
 *   - completed by another thread while the main thread waits (Wait, Waitany, Waitall,
 *     Waitsome), while it polls (Test, Testany, Testall, Testsome, Request_get_status), and while
 *     it is in a blocking receive; completed later in the program, after other traffic;
 *   - query_fn fills the status (source, tag, elements, cancelled) and runs once per completion
 *     (and once per Request_get_status), free_fn once, after query_fn; arrays that mix them with
 *     point-to-point requests to a neighbour (data verified);
 *   - MPI_Request_free before completion (free_fn runs in MPI_Grequest_complete, on the
 *     completing thread) and after it (free_fn runs in Request_free); MPI_Cancel calls cancel_fn
 *     with complete 0 or 1;
 *   - a failing query_fn or free_fn: its error class from Wait, MPI_ERR_IN_STATUS and the
 *     per-request MPI_ERROR from Waitall, free_fn still called once;
 *   - misuse (under Plexus): NULL callbacks or request (MPI_ERR_ARG naming the argument),
 *     completing twice, completing MPI_REQUEST_NULL or a point-to-point request (MPI_ERR_REQUEST). */
#include <pthread.h>

#include "test_util.h"

struct greq {
    int id;
    MPI_Request handle;     /* for the completing thread */
    int query_calls, free_calls, cancel_calls, cancel_complete;
    int query_at, free_at;  /* when, in the order of all callback calls */
    int query_rc, free_rc;  /* what they return */
    int delay_ms;           /* the completing thread's wait before completing */
    int complete_rc;        /* what MPI_Grequest_complete returned on the thread */
    int freed_first;        /* MPI_Request_free came before the thread's completion */
    int thread_saw_free;    /* then: free_fn had run when the thread's MPI_Grequest_complete returned */
    pthread_t thread;
};
static int callback_clock;

static int query_fn(void *extra, MPI_Status *st)
{
    struct greq *g = extra;
    ++g->query_calls;
    g->query_at = ++callback_clock;
    st->MPI_SOURCE = 1000 + g->id;
    st->MPI_TAG = 2000 + g->id;
    MPI_Status_set_elements(st, MPI_INT, 3 * g->id);
    MPI_Status_set_cancelled(st, g->cancel_calls > 0);
    return g->query_rc;
}

static int free_fn(void *extra)
{
    struct greq *g = extra;
    ++g->free_calls;
    g->free_at = ++callback_clock;
    return g->free_rc;
}

static int cancel_fn(void *extra, int complete)
{
    struct greq *g = extra;
    ++g->cancel_calls;
    g->cancel_complete = complete;
    return MPI_SUCCESS;
}

static void start(struct greq *g, int id)
{
    memset(g, 0, sizeof *g);
    g->id = id;
    CHECK_MPI(MPI_Grequest_start(query_fn, free_fn, cancel_fn, g, &g->handle));
    CHECK(g->handle != MPI_REQUEST_NULL, "Grequest_start gave MPI_REQUEST_NULL");
}

static void *complete_later(void *arg)
{
    struct greq *g = arg;
    tu_sleep_ms(g->delay_ms);
    g->complete_rc = MPI_Grequest_complete(g->handle);
    if (g->freed_first)  /* otherwise the main thread may be running the callbacks by now */
        g->thread_saw_free = g->free_calls;
    return NULL;
}

/* MPI_Grequest_complete from a thread of its own after delay_ms. */
static void complete_from_thread(struct greq *g, int delay_ms)
{
    g->delay_ms = delay_ms;
    CHECK(pthread_create(&g->thread, NULL, complete_later, g) == 0, "pthread_create failed");
}

static void join(struct greq *g)
{
    CHECK(pthread_join(g->thread, NULL) == 0, "pthread_join failed");
    CHECK(g->complete_rc == MPI_SUCCESS, "greq %d: MPI_Grequest_complete on a thread returned %d", g->id,
          g->complete_rc);
}

/* Ended by a completion call: query_fn once, then free_fn once; the status is query_fn's. */
static void check_ended(const struct greq *g, const MPI_Status *st, const char *how)
{
    CHECK(g->query_calls == 1 && g->free_calls == 1, "%s: greq %d: query_fn %d times, free_fn %d times",
          how, g->id, g->query_calls, g->free_calls);
    CHECK(g->query_at < g->free_at, "%s: greq %d: free_fn ran before query_fn", how, g->id);
    if (!st)
        return;
    int count = -1, cancelled = -1;
    CHECK_MPI(MPI_Get_count(st, MPI_INT, &count));
    CHECK_MPI(MPI_Test_cancelled(st, &cancelled));
    CHECK(st->MPI_SOURCE == 1000 + g->id && st->MPI_TAG == 2000 + g->id && count == 3 * g->id,
          "%s: greq %d: status source %d, tag %d, count %d", how, g->id, st->MPI_SOURCE, st->MPI_TAG, count);
    CHECK(cancelled == (g->cancel_calls > 0), "%s: greq %d: Test_cancelled %d", how, g->id, cancelled);
}

static void single_completions(void)
{
    struct greq a, b;
    MPI_Status st;
    int flag = -1;

    start(&a, 1);  /* Wait while another thread completes it */
    complete_from_thread(&a, 30);
    CHECK_MPI(MPI_Wait(&a.handle, &st));
    join(&a);
    CHECK(a.handle == MPI_REQUEST_NULL, "Wait left the handle");
    check_ended(&a, &st, "Wait");

    start(&a, 2);  /* Test: not complete, then complete */
    CHECK_MPI(MPI_Test(&a.handle, &flag, &st));
    CHECK(!flag && a.query_calls == 0 && a.free_calls == 0, "Test of an incomplete generalized request");
    CHECK_MPI(MPI_Grequest_complete(a.handle));
    CHECK_MPI(MPI_Test(&a.handle, &flag, &st));
    CHECK(flag, "Test after MPI_Grequest_complete says incomplete");
    check_ended(&a, &st, "Test");

    start(&a, 3);  /* Request_get_status: query_fn each time, the request stays */
    CHECK_MPI(MPI_Request_get_status(a.handle, &flag, &st));
    CHECK(!flag && a.query_calls == 0, "Request_get_status of an incomplete generalized request");
    complete_from_thread(&a, 10);
    double end = tu_deadline();
    do {
        CHECK_MPI(MPI_Request_get_status(a.handle, &flag, &st));
        CHECK(MPI_Wtime() < end, "Request_get_status never saw the thread's completion");
    } while (!flag);
    join(&a);
    CHECK_MPI(MPI_Request_get_status(a.handle, &flag, MPI_STATUS_IGNORE));
    CHECK(flag && a.query_calls == 2 && a.free_calls == 0, "Request_get_status: query_fn %d, free_fn %d",
          a.query_calls, a.free_calls);
    CHECK_MPI(MPI_Wait(&a.handle, MPI_STATUS_IGNORE));  /* query_fn still runs, into a scratch status */
    CHECK(a.query_calls == 3 && a.free_calls == 1, "Wait with MPI_STATUS_IGNORE: query_fn %d, free_fn %d",
          a.query_calls, a.free_calls);

    start(&a, 4);  /* Waitany / Testany among a null and another generalized request */
    start(&b, 5);
    MPI_Request arr[3] = {MPI_REQUEST_NULL, a.handle, b.handle};
    int index = -1;
    complete_from_thread(&b, 20);
    CHECK_MPI(MPI_Waitany(3, arr, &index, &st));
    join(&b);
    CHECK(index == 2 && arr[2] == MPI_REQUEST_NULL, "Waitany: index %d", index);
    check_ended(&b, &st, "Waitany");
    CHECK(a.query_calls == 0 && a.free_calls == 0, "Waitany touched the incomplete request");
    CHECK_MPI(MPI_Testany(3, arr, &index, &flag, &st));
    CHECK(!flag && index == MPI_UNDEFINED, "Testany: flag %d index %d with nothing complete", flag, index);
    CHECK_MPI(MPI_Grequest_complete(a.handle));
    CHECK_MPI(MPI_Testany(3, arr, &index, &flag, &st));
    CHECK(flag && index == 1, "Testany: flag %d index %d", flag, index);
    check_ended(&a, &st, "Testany");
}

/* Waitall / Testall / Waitsome / Testsome, mixed with a send and a receive to the neighbours. */
static void multiple_completions(void)
{
    struct greq g[3];
    MPI_Request arr[5];
    MPI_Status st[5];
    int to = (tu_rank + 1) % tu_size, from = (tu_rank - 1 + tu_size) % tu_size, flag = -1;
    unsigned char out[4096], in[4096];
    tu_fill(out, sizeof out, tu_seed(tu_rank, to, sizeof out, 77));
    for (int i = 0; i < 3; ++i)
        start(&g[i], 10 + i);
    CHECK_MPI(MPI_Irecv(in, sizeof in, MPI_BYTE, from, 77, MPI_COMM_WORLD, &arr[3]));
    CHECK_MPI(MPI_Isend(out, sizeof out, MPI_BYTE, to, 77, MPI_COMM_WORLD, &arr[4]));
    for (int i = 0; i < 3; ++i)
        arr[i] = g[i].handle;
    CHECK_MPI(MPI_Testall(5, arr, &flag, st));
    CHECK(!flag, "Testall with incomplete generalized requests says complete");
    for (int i = 0; i < 3; ++i)
        complete_from_thread(&g[i], 5 + 15 * i);
    CHECK_MPI(MPI_Waitall(5, arr, st));
    for (int i = 0; i < 3; ++i) {
        join(&g[i]);
        check_ended(&g[i], &st[i], "Waitall");
        CHECK(st[i].MPI_ERROR == MPI_SUCCESS, "Waitall: MPI_ERROR %d", st[i].MPI_ERROR);
    }
    CHECK_STATUS(&st[3], from, 77, sizeof in);
    VERIFY(in, sizeof in, tu_seed(from, tu_rank, sizeof in, 77), "a receive in an array with generalized requests");

    for (int i = 0; i < 3; ++i) {
        start(&g[i], 20 + i);
        arr[i] = g[i].handle;
    }
    CHECK_MPI(MPI_Grequest_complete(g[0].handle));
    CHECK_MPI(MPI_Grequest_complete(g[2].handle));
    int outcount = -1, indices[3] = {-1, -1, -1};
    CHECK_MPI(MPI_Testsome(3, arr, &outcount, indices, st));
    CHECK(outcount == 2 && indices[0] == 0 && indices[1] == 2, "Testsome: %d complete (%d, %d)", outcount,
          indices[0], indices[1]);
    check_ended(&g[0], &st[0], "Testsome");
    check_ended(&g[2], &st[1], "Testsome");
    complete_from_thread(&g[1], 10);
    CHECK_MPI(MPI_Waitsome(3, arr, &outcount, indices, st));
    join(&g[1]);
    CHECK(outcount == 1 && indices[0] == 1, "Waitsome: %d complete (%d)", outcount, indices[0]);
    check_ended(&g[1], &st[0], "Waitsome");
    CHECK_MPI(MPI_Waitsome(3, arr, &outcount, indices, st));
    CHECK(outcount == MPI_UNDEFINED, "Waitsome of nothing active: outcount %d", outcount);
}

static void free_and_cancel(void)
{
    struct greq a;
    MPI_Request copy;
    MPI_Status st;

    start(&a, 30);  /* freed first: free_fn runs in MPI_Grequest_complete, on the thread */
    copy = a.handle;
    CHECK_MPI(MPI_Request_free(&a.handle));
    CHECK(a.handle == MPI_REQUEST_NULL && a.free_calls == 0, "Request_free before completion");
    a.handle = copy;
    a.freed_first = 1;
    complete_from_thread(&a, 10);
    join(&a);
    CHECK(a.thread_saw_free == 1 && a.query_calls == 0, "freed, then completed on a thread: free_fn %d, query_fn %d",
          a.thread_saw_free, a.query_calls);

    start(&a, 31);  /* the same on the main thread */
    copy = a.handle;
    CHECK_MPI(MPI_Request_free(&a.handle));
    CHECK_MPI(MPI_Grequest_complete(copy));
    CHECK(a.free_calls == 1 && a.query_calls == 0, "freed, then completed: free_fn %d", a.free_calls);

    start(&a, 32);  /* completed first: free_fn runs in Request_free */
    CHECK_MPI(MPI_Grequest_complete(a.handle));
    CHECK(a.free_calls == 0, "free_fn ran at completion of a request not freed");
    CHECK_MPI(MPI_Request_free(&a.handle));
    CHECK(a.handle == MPI_REQUEST_NULL && a.free_calls == 1 && a.query_calls == 0, "Request_free after completion");

    start(&a, 33);  /* cancel before and after completion */
    CHECK_MPI(MPI_Cancel(&a.handle));
    CHECK(a.cancel_calls == 1 && a.cancel_complete == 0, "cancel_fn: %d calls, complete %d", a.cancel_calls,
          a.cancel_complete);
    CHECK_MPI(MPI_Grequest_complete(a.handle));
    CHECK_MPI(MPI_Cancel(&a.handle));
    CHECK(a.cancel_calls == 2 && a.cancel_complete == 1, "cancel_fn after completion: complete %d",
          a.cancel_complete);
    CHECK_MPI(MPI_Wait(&a.handle, &st));
    check_ended(&a, &st, "Wait after Cancel");
}

/* A generalized request completed while the main thread blocks in a receive. */
static void complete_during_receive(void)
{
    struct greq a;
    MPI_Status st;
    int token = tu_rank, got = -1;
    int to = (tu_rank + 1) % tu_size, from = (tu_rank - 1 + tu_size) % tu_size;
    start(&a, 40);
    complete_from_thread(&a, 20);
    if (tu_rank == 0)
        tu_sleep_ms(60);  /* the others wait in MPI_Recv while their threads complete */
    CHECK_MPI(MPI_Sendrecv(&token, 1, MPI_INT, to, 78, &got, 1, MPI_INT, from, 78, MPI_COMM_WORLD, &st));
    CHECK(got == from, "ring token %d from %d", got, from);
    join(&a);
    CHECK_MPI(MPI_Wait(&a.handle, &st));
    check_ended(&a, &st, "Wait after a receive");
}

static void callback_errors(void)
{
    struct greq a, b;
    MPI_Status st[2];
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    start(&a, 50);
    a.query_rc = MPI_ERR_OTHER;
    CHECK_MPI(MPI_Grequest_complete(a.handle));
    CHECK_CLASS(MPI_Wait(&a.handle, &st[0]), MPI_ERR_OTHER);
    CHECK(a.free_calls == 1 && a.handle == MPI_REQUEST_NULL, "a failing query_fn: free_fn %d", a.free_calls);

    start(&a, 51);
    a.free_rc = MPI_ERR_INTERN;
    CHECK_MPI(MPI_Grequest_complete(a.handle));
    CHECK_CLASS(MPI_Wait(&a.handle, &st[0]), MPI_ERR_INTERN);

    start(&a, 52);
    start(&b, 53);
    a.free_rc = MPI_ERR_INTERN;
    MPI_Request arr[2] = {a.handle, b.handle};
    CHECK_MPI(MPI_Grequest_complete(a.handle));
    CHECK_MPI(MPI_Grequest_complete(b.handle));
    int rc = MPI_Waitall(2, arr, st);
    CHECK(rc == MPI_ERR_IN_STATUS, "Waitall with a failing free_fn returned %d", rc);
    CHECK(tu_error_class(st[0].MPI_ERROR) == MPI_ERR_INTERN && st[1].MPI_ERROR == MPI_SUCCESS,
          "Waitall: MPI_ERROR %d and %d", st[0].MPI_ERROR, st[1].MPI_ERROR);
    check_ended(&b, &st[1], "Waitall beside a failing one");
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
}

/* The call fails with class want and its message names what. */
#define CHECK_MISUSE(call, want, what)                                                            \
    do {                                                                                          \
        int rc_ = (call);                                                                         \
        char text_[MPI_MAX_ERROR_STRING];                                                         \
        int len_ = 0;                                                                             \
        CHECK(rc_ != MPI_SUCCESS && tu_error_class(rc_) == (want), "%s returned class %d, expected %d", #call, \
              tu_error_class(rc_), (want));                                                       \
        MPI_Error_string(rc_, text_, &len_);                                                      \
        CHECK(strstr(text_, (what)) != NULL, "%s: message '%s' does not name '%s'", #call, text_, (what)); \
    } while (0)

/* Plexus's checks (docs/mpi-api.md, "Where Plexus is stricter"): Open MPI takes NULL callbacks
 * and neither checks a second completion. */
static void misuse(void)
{
#ifdef PLEXUS_MPI
    struct greq a;
    MPI_Request req, p2p;
    int x = 0;
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    CHECK_MISUSE(MPI_Grequest_start(NULL, free_fn, cancel_fn, &a, &req), MPI_ERR_ARG, "query_fn");
    CHECK_MISUSE(MPI_Grequest_start(query_fn, NULL, cancel_fn, &a, &req), MPI_ERR_ARG, "free_fn");
    CHECK_MISUSE(MPI_Grequest_start(query_fn, free_fn, NULL, &a, &req), MPI_ERR_ARG, "cancel_fn");
    CHECK_MISUSE(MPI_Grequest_start(query_fn, free_fn, cancel_fn, &a, NULL), MPI_ERR_ARG, "request");
    CHECK_MISUSE(MPI_Grequest_complete(MPI_REQUEST_NULL), MPI_ERR_REQUEST, "MPI_REQUEST_NULL");
    start(&a, 60);
    CHECK_MPI(MPI_Grequest_complete(a.handle));
    CHECK_MISUSE(MPI_Grequest_complete(a.handle), MPI_ERR_REQUEST, "completed already");
    CHECK_MPI(MPI_Wait(&a.handle, MPI_STATUS_IGNORE));
    CHECK(a.free_calls == 1, "completing twice ran free_fn %d times", a.free_calls);
    CHECK_MPI(MPI_Irecv(&x, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &p2p));
    CHECK_MISUSE(MPI_Grequest_complete(p2p), MPI_ERR_REQUEST, "not a generalized request");
    CHECK_MPI(MPI_Wait(&p2p, MPI_STATUS_IGNORE));
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
#endif
}

int main(int argc, char **argv)
{
    tu_init(&argc, &argv);
    tu_require_ranks(1, 4);
    struct greq later;
    start(&later, 70);  /* completed at the end, after everything else */
    single_completions();
    multiple_completions();
    free_and_cancel();
    complete_during_receive();
    callback_errors();
    misuse();
    CHECK(later.query_calls == 0 && later.free_calls == 0, "the long-lived request's callbacks ran early");
    MPI_Status st;
    CHECK_MPI(MPI_Grequest_complete(later.handle));
    CHECK_MPI(MPI_Wait(&later.handle, &st));
    check_ended(&later, &st, "Wait at the end of the program");
    return tu_finish("generalized requests with every wait/test call, completed on other threads and later, "
                     "mixed with point-to-point; free/cancel callbacks; callback errors; misuse classes");
}
