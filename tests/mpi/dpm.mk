# MPI programs of tests/mpi for dynamic processes (docs/dynamic-processes.md): spawn, spawn
# multiple, nested spawns, merges and collectives across the new groups, ports and names,
# join over TCP, disconnect, every misuse's class, and a loop of spawn/exchange/disconnect
# cycles with fds and /dev/shm flat. Plexus with dpm_pmix under plexrun; plain MPI-2.2.
check_PROGRAMS += tests/mpi/dpm_spawn tests/mpi/dpm_ports tests/mpi/dpm_join tests/mpi/dpm_merge_coll

tests_mpi_dpm_spawn_SOURCES = tests/mpi/dpm_spawn.c tests/mpi/dpm_util.h tests/mpi/test_util.h
tests_mpi_dpm_spawn_CPPFLAGS = $(mpi_test_includes)
tests_mpi_dpm_spawn_LDADD = $(mpi_test_libs)
tests_mpi_dpm_spawn_LDFLAGS = $(mpi_test_link_flags)
tests_mpi_dpm_ports_SOURCES = tests/mpi/dpm_ports.c tests/mpi/dpm_util.h tests/mpi/test_util.h
tests_mpi_dpm_ports_CPPFLAGS = $(mpi_test_includes)
tests_mpi_dpm_ports_LDADD = $(mpi_test_libs)
tests_mpi_dpm_ports_LDFLAGS = $(mpi_test_link_flags)
tests_mpi_dpm_join_SOURCES = tests/mpi/dpm_join.c tests/mpi/dpm_util.h tests/mpi/test_util.h
tests_mpi_dpm_join_CPPFLAGS = $(mpi_test_includes)
tests_mpi_dpm_join_LDADD = $(mpi_test_libs)
tests_mpi_dpm_join_LDFLAGS = $(mpi_test_link_flags)
tests_mpi_dpm_merge_coll_SOURCES = tests/mpi/dpm_merge_coll.c tests/mpi/test_util.h
tests_mpi_dpm_merge_coll_CPPFLAGS = $(mpi_test_includes)
tests_mpi_dpm_merge_coll_LDADD = $(mpi_test_libs)
tests_mpi_dpm_merge_coll_LDFLAGS = $(mpi_test_link_flags)

mpi_runs_extra += tests/mpi/default/dpm_spawn_1.sh tests/mpi/default/dpm_spawn_2.sh tests/mpi/default/dpm_spawn_multiple.sh \
	tests/mpi/default/dpm_spawn_nested.sh tests/mpi/default/dpm_spawn_missing.sh tests/mpi/default/dpm_spawn_loop.sh \
	tests/mpi/default/dpm_ports_meet.sh tests/mpi/default/dpm_ports_errors.sh tests/mpi/default/dpm_join.sh \
	tests/mpi/default/dpm_merge_coll.sh
EXTRA_DIST += tests/mpi/cases/dpm_spawn_1.case tests/mpi/cases/dpm_spawn_2.case tests/mpi/cases/dpm_spawn_multiple.case \
	tests/mpi/cases/dpm_spawn_nested.case tests/mpi/cases/dpm_spawn_missing.case tests/mpi/cases/dpm_spawn_loop.case \
	tests/mpi/cases/dpm_ports_meet.case tests/mpi/cases/dpm_ports_errors.case tests/mpi/cases/dpm_join.case \
	tests/mpi/cases/dpm_merge_coll.case
