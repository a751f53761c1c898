# MPI programs and runs of coll_shm_inter (components/coll_shm_inter/README.md, "Tests"): the
# collective suites of coll_basic run again with coll_shm_inter ahead of it (its size table, then
# forced for every size, on fake nodes for the two-level paths, every size by single copy, the
# rooted Reduce written into the root), the size table's hand-over, its decline (quiet unless
# verbose), and a rank dying in a shared-memory barrier and in a large Allreduce. Included by
# tests/mpi/local.mk.
check_PROGRAMS += tests/mpi/coll_shm_inter_death

tests_mpi_coll_shm_inter_death_SOURCES = tests/mpi/coll_shm_inter_death.c
tests_mpi_coll_shm_inter_death_CPPFLAGS = $(mpi_test_includes)
tests_mpi_coll_shm_inter_death_LDADD = $(mpi_test_libs)
tests_mpi_coll_shm_inter_death_LDFLAGS = $(mpi_test_link_flags)

mpi_runs_extra += tests/mpi/default/coll_shm_intra.sh tests/mpi/default/coll_shm_intra_2.sh \
	tests/mpi/default/coll_shm_intra_forced.sh tests/mpi/default/coll_shm_intra_forced_3.sh \
	tests/mpi/default/coll_shm_intra_nodes.sh tests/mpi/default/coll_shm_inter.sh \
	tests/mpi/default/coll_shm_inter_forced.sh tests/mpi/default/coll_shm_inter_forced_3.sh \
	tests/mpi/default/coll_shm_inter_nodes.sh tests/mpi/default/coll_shm_zero_size.sh \
	tests/mpi/default/coll_shm_errors.sh tests/mpi/default/coll_shm_decline.sh \
	tests/mpi/default/comm_shm_inter.sh tests/mpi/default/coll_shm_inter_death.sh \
	tests/mpi/default/coll_shm_inter_death_large.sh tests/mpi/default/coll_shm_intra_copy.sh \
	tests/mpi/default/coll_shm_intra_copy_nodes.sh tests/mpi/default/coll_shm_inter_copy.sh \
	tests/mpi/default/coll_shm_inter_copy_nodes.sh tests/mpi/default/coll_shm_spawn_merge.sh \
	tests/mpi/default/coll_shm_handover.sh tests/mpi/default/coll_shm_intra_root_copy.sh \
	tests/mpi/default/coll_shm_inter_root_copy.sh tests/mpi/default/coll_shm_inter_union.sh \
	tests/mpi/default/coll_shm_inter_pair.sh

EXTRA_DIST += tests/mpi/cases/coll_shm_intra.case tests/mpi/cases/coll_shm_intra_2.case \
	tests/mpi/cases/coll_shm_intra_forced.case tests/mpi/cases/coll_shm_intra_forced_3.case \
	tests/mpi/cases/coll_shm_intra_nodes.case tests/mpi/cases/coll_shm_inter.case \
	tests/mpi/cases/coll_shm_inter_forced.case tests/mpi/cases/coll_shm_inter_forced_3.case \
	tests/mpi/cases/coll_shm_inter_nodes.case tests/mpi/cases/coll_shm_zero_size.case \
	tests/mpi/cases/coll_shm_errors.case tests/mpi/cases/coll_shm_decline.case \
	tests/mpi/cases/comm_shm_inter.case tests/mpi/cases/coll_shm_inter_death.case \
	tests/mpi/cases/coll_shm_inter_death_large.case tests/mpi/cases/coll_shm_intra_copy.case \
	tests/mpi/cases/coll_shm_intra_copy_nodes.case tests/mpi/cases/coll_shm_inter_copy.case \
	tests/mpi/cases/coll_shm_inter_copy_nodes.case tests/mpi/cases/coll_shm_spawn_merge.case \
	tests/mpi/cases/coll_shm_handover.case tests/mpi/cases/coll_shm_intra_root_copy.case \
	tests/mpi/cases/coll_shm_inter_root_copy.case tests/mpi/cases/coll_shm_inter_union.case \
	tests/mpi/cases/coll_shm_inter_pair.case

# A decline on a communicator is quiet unless coll_base_verbose asks.
TESTS += tests/mpi/coll_shm_quiet.sh
EXTRA_DIST += tests/mpi/coll_shm_quiet.sh
