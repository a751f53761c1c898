// What the library and the machine are: version, thread level, processor name, clocks.
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "mpi/api/profiling.h"
#include "mpi/arg_check.h"
#include "mpi/mpi_state.h"
#include "plexus_config.h"

using namespace plexus::mpi;

extern "C" {

PLEXUS_MPI_ALIAS(Query_thread)
int PMPI_Query_thread(int *provided) {
    MpiState &s = running("MPI_Query_thread");
    if (int rc = check_pointer("MPI_Query_thread", MPI_COMM_WORLD, provided, "provided")) return rc;
    *provided = s.thread_level;
    return MPI_SUCCESS;
}

PLEXUS_MPI_ALIAS(Is_thread_main)
int PMPI_Is_thread_main(int *flag) {
    MpiState &s = running("MPI_Is_thread_main");
    if (int rc = check_pointer("MPI_Is_thread_main", MPI_COMM_WORLD, flag, "flag")) return rc;
    *flag = pthread_equal(pthread_self(), s.main_thread) != 0;
    return MPI_SUCCESS;
}

PLEXUS_MPI_ALIAS(Get_processor_name)
int PMPI_Get_processor_name(char *name, int *resultlen) {
    constexpr const char *fn = "MPI_Get_processor_name";
    running(fn);
    if (int rc = check_pointer(fn, MPI_COMM_WORLD, name, "name")) return rc;
    if (int rc = check_pointer(fn, MPI_COMM_WORLD, resultlen, "resultlen")) return rc;
    if (gethostname(name, MPI_MAX_PROCESSOR_NAME) != 0)
        return report_errorf(MPI_COMM_WORLD, MPI_ERR_OTHER, "%s: gethostname failed: %s", fn, std::strerror(errno));
    name[MPI_MAX_PROCESSOR_NAME - 1] = '\0';
    *resultlen = static_cast<int>(std::strlen(name));
    return MPI_SUCCESS;
}

// Allowed at any time, before MPI_Init and after MPI_Finalize too.
PLEXUS_MPI_ALIAS(Get_version)
int PMPI_Get_version(int *version, int *subversion) {
    if (int rc = check_pointer("MPI_Get_version", MPI_COMM_WORLD, version, "version")) return rc;
    if (int rc = check_pointer("MPI_Get_version", MPI_COMM_WORLD, subversion, "subversion")) return rc;
    *version = MPI_VERSION;
    *subversion = MPI_SUBVERSION;
    return MPI_SUCCESS;
}

PLEXUS_MPI_ALIAS(Get_library_version)
int PMPI_Get_library_version(char *version, int *resultlen) {
    if (int rc = check_pointer("MPI_Get_library_version", MPI_COMM_WORLD, version, "version")) return rc;
    if (int rc = check_pointer("MPI_Get_library_version", MPI_COMM_WORLD, resultlen, "resultlen")) return rc;
    const int n = std::snprintf(version, MPI_MAX_LIBRARY_VERSION_STRING,
                                "Plexus %s (MPI %d.%d, up to MPI_THREAD_FUNNELED), built with %s %s",
                                PACKAGE_VERSION, MPI_VERSION, MPI_SUBVERSION,
#if defined(__clang__)
                                "clang",
#elif defined(__GNUC__)
                                "GCC",
#else
                                "a C++ compiler",
#endif
                                __VERSION__);
    *resultlen = n < MPI_MAX_LIBRARY_VERSION_STRING ? n : MPI_MAX_LIBRARY_VERSION_STRING - 1;
    return MPI_SUCCESS;
}

// The monotonic clock: never jumps with the wall clock; not synchronized between nodes.
PLEXUS_MPI_ALIAS(Wtime)
double PMPI_Wtime(void) {
    timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
}

PLEXUS_MPI_ALIAS(Wtick)
double PMPI_Wtick(void) {
    timespec t;
    if (clock_getres(CLOCK_MONOTONIC, &t) != 0) return 1e-9;
    return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
}

}  // extern "C"
