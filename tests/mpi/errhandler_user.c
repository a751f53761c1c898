/* User error handlers (MPI_Comm_create_errhandler): an invalid-rank send on a communicator whose
 * handler is a user one calls it exactly once, with that communicator and the code the send
 * then returns (class MPI_ERR_RANK); MPI_Comm_get_errhandler gives the handler set (a new handle,
 * freed with MPI_Errhandler_free, which sets it to MPI_ERRHANDLER_NULL); a duplicate inherits the
 * handler (called with the duplicate); the handler keeps working after its handle is freed while a
 * communicator uses it; MPI_Comm_call_errhandler calls it with the code given and returns
 * MPI_SUCCESS, and under MPI_ERRORS_RETURN just returns; MPI_COMM_SELF and MPI_COMM_WORLD have
 * handlers of their own; switching back to MPI_ERRORS_RETURN stops the calls. The MPI-1 names
 * (Errhandler_create/set/get) do the same. Misuse: MPI_ERRHANDLER_NULL to set. */
#include "attr_util.h"

/* The MPI-1 names are tested on purpose. */
#if defined(__GNUC__)
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
#endif

static int calls;
static MPI_Comm called_comm = MPI_COMM_NULL;
static int called_code = MPI_SUCCESS;

static void record(MPI_Comm *comm, int *code, ...)
{
    ++calls;
    called_comm = *comm;
    called_code = *code;
}

static int other_calls;
static void other(MPI_Comm *comm, int *code, ...)
{
    (void)comm;
    (void)code;
    ++other_calls;
}

/* An invalid-rank send on comm: the handler was called once with comm and the code returned. */
static void expect_called_at(const char *file, int line, MPI_Comm comm)
{
    int before = calls, byte = 0;
    int rc = MPI_Send(&byte, 1, MPI_INT, tu_size + 3, 0, comm);
    if (calls != before + 1)
        tu_fail(file, line, "handler", "called %d times by one failing MPI_Send, expected once", calls - before);
    if (called_comm != comm)
        tu_fail(file, line, "handler", "called with another communicator than the send's");
    if (rc == MPI_SUCCESS || called_code != rc || tu_error_class(rc) != MPI_ERR_RANK)
        tu_fail(file, line, "handler",
                "MPI_Send returned %d (class %d), the handler got %d; expected one code of class MPI_ERR_RANK",
                rc, tu_error_class(rc), called_code);
}
#define EXPECT_CALLED(comm) expect_called_at(__FILE__, __LINE__, (comm))

int main(int argc, char **argv)
{
    tu_init(&argc, &argv);
    tu_require_ranks(1, 0);
    MPI_Errhandler eh, got;
    CHECK_MPI(MPI_Comm_create_errhandler(record, &eh));
    CHECK(eh != MPI_ERRHANDLER_NULL, "MPI_Comm_create_errhandler gave MPI_ERRHANDLER_NULL");
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, eh));
    CHECK_MPI(MPI_Comm_get_errhandler(MPI_COMM_WORLD, &got));
    CHECK(got == eh, "MPI_Comm_get_errhandler did not give the handler set");
    CHECK_MPI(MPI_Errhandler_free(&got));
    CHECK(got == MPI_ERRHANDLER_NULL, "MPI_Errhandler_free did not set the handle to MPI_ERRHANDLER_NULL");
    EXPECT_CALLED(MPI_COMM_WORLD);

    /* Inherited by a duplicate, which the handler then sees. */
    MPI_Comm dup;
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    CHECK_MPI(MPI_Comm_get_errhandler(dup, &got));
    CHECK(got == eh, "MPI_Comm_dup did not inherit the error handler");
    CHECK_MPI(MPI_Errhandler_free(&got));
    EXPECT_CALLED(dup);

    /* The handle freed: the communicators still use the handler. */
    CHECK_MPI(MPI_Errhandler_free(&eh));
    CHECK(eh == MPI_ERRHANDLER_NULL, "MPI_Errhandler_free did not set the handle to MPI_ERRHANDLER_NULL");
    EXPECT_CALLED(dup);
    EXPECT_CALLED(MPI_COMM_WORLD);

    /* MPI_Comm_call_errhandler: the handler gets exactly the code. */
    int before = calls;
    CHECK_MPI(MPI_Comm_call_errhandler(dup, MPI_ERR_OTHER));
    CHECK_EQ(calls, before + 1);
    CHECK(called_comm == dup, "MPI_Comm_call_errhandler called the handler with another communicator");
    CHECK_EQ(called_code, MPI_ERR_OTHER);
    int user_class, user_code;
    CHECK_MPI(MPI_Add_error_class(&user_class));
    CHECK_MPI(MPI_Add_error_code(user_class, &user_code));
    CHECK_MPI(MPI_Comm_call_errhandler(MPI_COMM_WORLD, user_code));
    CHECK_EQ(calls, before + 2);
    CHECK_EQ(called_code, user_code);
    CHECK(called_comm == MPI_COMM_WORLD, "MPI_Comm_call_errhandler: wrong communicator");

    /* MPI_COMM_SELF has its own handler (the MPI-1 names, which MPI-3 removed: Open MPI 4.1
     * refuses them at compile time). */
    MPI_Errhandler eh2;
#ifndef OPEN_MPI
    CHECK_MPI(MPI_Errhandler_create(other, &eh2));
    CHECK_MPI(MPI_Errhandler_set(MPI_COMM_SELF, eh2));
    CHECK_MPI(MPI_Errhandler_get(MPI_COMM_SELF, &got));
#else
    CHECK_MPI(MPI_Comm_create_errhandler(other, &eh2));
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_SELF, eh2));
    CHECK_MPI(MPI_Comm_get_errhandler(MPI_COMM_SELF, &got));
#endif
    CHECK(got == eh2, "MPI_Errhandler_get did not give the handler set");
    CHECK_MPI(MPI_Errhandler_free(&got));
    CHECK_MPI(MPI_Errhandler_free(&eh2));
    before = calls;
    int byte = 0;
    int rc = MPI_Send(&byte, 1, MPI_INT, 1, 0, MPI_COMM_SELF); /* MPI_COMM_SELF has rank 0 only */
    CHECK_EQ(tu_error_class(rc), MPI_ERR_RANK);
    CHECK_EQ(other_calls, 1);
    CHECK_EQ(calls, before);

    /* MPI_ERRORS_RETURN: no more calls; MPI_Comm_call_errhandler just returns. */
    CHECK_MPI(MPI_Comm_set_errhandler(dup, MPI_ERRORS_RETURN));
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));
    rc = MPI_Send(&byte, 1, MPI_INT, tu_size + 3, 0, dup);
    CHECK_EQ(tu_error_class(rc), MPI_ERR_RANK);
    CHECK_EQ(calls, before);
    CHECK_MPI(MPI_Comm_call_errhandler(dup, MPI_ERR_OTHER));
    CHECK_EQ(calls, before);

    /* A handler set on a communicator that is then freed goes with it. */
    CHECK_MPI(MPI_Comm_create_errhandler(record, &eh));
    CHECK_MPI(MPI_Comm_set_errhandler(dup, eh));
    CHECK_MPI(MPI_Errhandler_free(&eh));
    EXPECT_CALLED(dup);
    CHECK_MPI(MPI_Comm_free(&dup));

    /* Misuse. */
    EXPECT_ERROR(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRHANDLER_NULL), AU_PLEXUS_CLASS(MPI_ERR_ARG));
    EXPECT_ERROR(MPI_Comm_set_errhandler(MPI_COMM_NULL, MPI_ERRORS_RETURN), MPI_ERR_COMM);
    EXPECT_ERROR(MPI_Comm_get_errhandler(MPI_COMM_NULL, &got), MPI_ERR_COMM);
    EXPECT_ERROR(MPI_Comm_call_errhandler(MPI_COMM_NULL, MPI_ERR_OTHER), MPI_ERR_COMM);
#ifdef PLEXUS_MPI
    /* A predefined handler can be freed only as often as MPI_Comm_get_errhandler gave it out. */
    got = MPI_ERRORS_RETURN;
    EXPECT_ERROR(MPI_Errhandler_free(&got), MPI_ERR_ARG);
    EXPECT_ERROR(MPI_Comm_create_errhandler(NULL, &eh), MPI_ERR_ARG);
    char text[MPI_MAX_ERROR_STRING];
    int len;
    rc = MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRHANDLER_NULL);
    CHECK_MPI(MPI_Error_string(rc, text, &len));
    CHECK(strstr(text, "MPI_Comm_set_errhandler") && strstr(text, "MPI_ERRHANDLER_NULL"),
          "message '%s' does not name the call and the handle", text);
#endif
    return tu_finish("user error handlers called with the right communicator and code (%d calls, %d error checks)",
                     calls, au_checks);
}
