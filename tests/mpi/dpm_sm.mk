# Shared memory between jobs (issue 19 item 4; components/btl_sm/README.md, "Processes of other
# jobs"): a spawned job reached through btl_sm alone, byte for byte.
check_PROGRAMS += tests/mpi/dpm_sm
tests_mpi_dpm_sm_SOURCES = tests/mpi/dpm_sm.c tests/mpi/dpm_util.h tests/mpi/test_util.h
tests_mpi_dpm_sm_CPPFLAGS = $(mpi_test_includes)
tests_mpi_dpm_sm_LDADD = $(mpi_test_libs)
tests_mpi_dpm_sm_LDFLAGS = $(mpi_test_link_flags)
mpi_runs_extra += tests/mpi/default/dpm_sm.sh
EXTRA_DIST += tests/mpi/cases/dpm_sm.case
# Connect/accept between two plexruns (issue 19 item 5): a script of its own, since the two jobs
# are started by two launchers.
check_PROGRAMS += tests/mpi/dpm_across
tests_mpi_dpm_across_SOURCES = tests/mpi/dpm_across.c tests/mpi/dpm_util.h tests/mpi/test_util.h
tests_mpi_dpm_across_CPPFLAGS = $(mpi_test_includes)
tests_mpi_dpm_across_LDADD = $(mpi_test_libs)
tests_mpi_dpm_across_LDFLAGS = $(mpi_test_link_flags)
TESTS += tests/mpi/dpm_across.sh
EXTRA_DIST += tests/mpi/dpm_across.sh tests/mpi/dpm_across_pair.sh
