/* Shared by the attribute, error handler and info tests (tests/mpi/attr_*.c, errhandler_*.c,
 * info.c): EXPECT_ERROR(call, class) checks that a misuse under MPI_ERRORS_RETURN fails with
 * that class (class -1: any error, where MPI leaves the class open or the reference
 * implementations disagree) and that MPI_Error_string says something. Header-only. */
#ifndef PLEXUS_TESTS_MPI_ATTR_UTIL_H
#define PLEXUS_TESTS_MPI_ATTR_UTIL_H

#include "test_util.h"

static int au_checks;

static inline void au_expect_error_at(const char *file, int line, int rc, int want, const char *call)
{
    char text[MPI_MAX_ERROR_STRING + 1];
    int len = -1, cls = tu_error_class(rc);
    if (rc == MPI_SUCCESS || (want >= 0 && cls != want))
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
#ifdef AU_PRINT_MESSAGES
    if (tu_rank == 0)
        printf("  %s -> %s\n", call, text);
#endif
    ++au_checks;
}

#define EXPECT_ERROR(call, cls) au_expect_error_at(__FILE__, __LINE__, (call), (cls), #call)

/* The class Plexus returns where Open MPI or MPICH return another (or none): checked exactly
 * under Plexus, as "some error" elsewhere. */
#ifdef PLEXUS_MPI
#define AU_PLEXUS_CLASS(cls) (cls)
#else
#define AU_PLEXUS_CLASS(cls) (-1)
#endif

/* Fails with a message when MPI_Error_string(code) is not exactly want. */
static inline void au_expect_string_at(const char *file, int line, int code, const char *want)
{
    char text[MPI_MAX_ERROR_STRING];
    int len = -1;
    int rc = MPI_Error_string(code, text, &len);
    if (rc != MPI_SUCCESS || len != (int)strlen(want) || strcmp(text, want) != 0)
        tu_fail(file, line, "MPI_Error_string",
                "code %d: returned %d, length %d, text '%s'; expected '%s'", code, rc, len,
                rc == MPI_SUCCESS ? text : "", want);
}

#define EXPECT_STRING(code, want) au_expect_string_at(__FILE__, __LINE__, (code), (want))

#endif
