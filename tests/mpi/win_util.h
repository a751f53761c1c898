/* Shared by the one-sided tests of tests/mpi (osc.mk): the osc_good test component as the only
 * osc component, a message check, and a count of error handler calls. Plexus-only: they point
 * the MCA core at a test component and read Plexus's messages. */
#ifndef PLEXUS_TESTS_MPI_WIN_UTIL_H
#define PLEXUS_TESTS_MPI_WIN_UTIL_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* mkdtemp, readlink, setenv */
#endif

#include "test_util.h"

#include <limits.h>
#include <unistd.h>

static char wu_dir[64];
static char wu_link[128];

/* Removes the folder: call it after MPI_Init and wu_open_osc, which have opened the component by
 * then, so that a job that aborts later (the fatal cases) leaves nothing in /tmp. */
static void wu_cleanup(void)
{
    if (wu_link[0]) unlink(wu_link);
    if (wu_dir[0]) rmdir(wu_dir);
    wu_link[0] = wu_dir[0] = '\0';
}

/* The MCA core opens the osc components at the first window, not at MPI_Init: one window of this
 * process alone, freed at once, has them opened while the folder is still there. */
static void wu_open_osc(void)
{
    static int word;
    MPI_Win win;
    if (MPI_Win_create(&word, sizeof word, sizeof word, MPI_INFO_NULL, MPI_COMM_SELF, &win) == MPI_SUCCESS)
        MPI_Win_free(&win);
}

/* Before MPI_Init: a private folder holding only a link to tests/plugins/.libs/plexus_osc_good.so
 * of this build tree (found from this program's own path, tests/mpi/NAME) becomes
 * mca_base_component_path, so that no other test component joins the job; `osc` is set to
 * `only` ("good", "^good") unless the environment sets it already (a case's `mca osc`). */
static inline void wu_use_osc_good(const char *only)
{
    char exe[PATH_MAX], target[PATH_MAX + 64];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0) { perror("readlink /proc/self/exe"); exit(99); }
    exe[n] = '\0';
    char *slash = strrchr(exe, '/');
    *slash = '\0';
    snprintf(target, sizeof target, "%s/../plugins/.libs/plexus_osc_good.so", exe);
    if (access(target, R_OK) != 0) {
        fprintf(stderr, "no test component %s (make check builds it)\n", target);
        exit(99);
    }
    snprintf(wu_dir, sizeof wu_dir, "/tmp/plexus-osc-good-XXXXXX");
    if (!mkdtemp(wu_dir)) { perror("mkdtemp"); exit(99); }
    snprintf(wu_link, sizeof wu_link, "%s/plexus_osc_good.so", wu_dir);
    if (symlink(target, wu_link) != 0) { perror("symlink"); exit(99); }
    atexit(wu_cleanup);
    setenv("PLEXUS_MCA_mca_base_component_path", wu_dir, 1);
    if (only) setenv("PLEXUS_MCA_osc", only, 0);
}

/* CHECK_ERROR(call, class, needle): the call failed with that class and its message names needle. */
#define CHECK_ERROR(call, want, needle)                                                           \
    do {                                                                                          \
        int wu_rc_ = (call);                                                                      \
        char wu_text_[MPI_MAX_ERROR_STRING];                                                      \
        int wu_cls_ = tu_error_class(wu_rc_);                                                     \
        tu_error_text(wu_rc_, wu_text_);                                                          \
        if (wu_rc_ == MPI_SUCCESS || wu_cls_ != (want))                                           \
            tu_fail(__FILE__, __LINE__, #call, "returned %d of class %d (%s), expected " #want,   \
                    wu_rc_, wu_cls_, wu_text_);                                                   \
        if (!strstr(wu_text_, (needle)))                                                          \
            tu_fail(__FILE__, __LINE__, #call, "message '%s' does not contain '%s'", wu_text_,    \
                    (needle));                                                                    \
    } while (0)

#endif
