# The profiling interface's test tool (tests/pmpi/README.md): libcount_calls, an interposer that
# counts calls and bytes per MPI function the way mpiP does, and an ordinary MPI program built
# twice, with the tool linked in before libmpi and without it (the tool is then preloaded).
check_LTLIBRARIES += tests/pmpi/libcount_calls.la
tests_pmpi_libcount_calls_la_SOURCES = tests/pmpi/count_calls.c
tests_pmpi_libcount_calls_la_CPPFLAGS = $(mpi_test_includes)
tests_pmpi_libcount_calls_la_LIBADD = $(mpi_test_libs)
# A shared object although it is never installed (-rpath makes libtool build one).
tests_pmpi_libcount_calls_la_LDFLAGS = -rpath /nowhere -avoid-version -no-undefined

check_PROGRAMS += tests/pmpi/workload tests/pmpi/workload_counted
tests_pmpi_workload_SOURCES = tests/pmpi/workload.c
tests_pmpi_workload_CPPFLAGS = $(mpi_test_includes)
tests_pmpi_workload_LDADD = $(mpi_test_libs)
tests_pmpi_workload_LDFLAGS = $(mpi_test_link_flags)
tests_pmpi_workload_counted_SOURCES = tests/pmpi/workload.c
tests_pmpi_workload_counted_CPPFLAGS = $(mpi_test_includes)
tests_pmpi_workload_counted_LDADD = tests/pmpi/libcount_calls.la $(mpi_test_libs)
tests_pmpi_workload_counted_LDFLAGS = $(mpi_test_link_flags)

TESTS += tests/pmpi/pmpi_tool.sh
EXTRA_DIST += tests/pmpi/pmpi_tool.sh tests/pmpi/README.md
