# MPI programs of tests/mpi (collectives): check_PROGRAMS, their flags, and the runs they add
# to mpi_runs_extra (tests/mpi/CONFIG/CASE.sh) and EXTRA_DIST (case files). See tests/mpi/README.md,
# "Collectives (issue 6)"; coll_util.h is their shared data model and sequential reference.
coll_test_headers = tests/mpi/test_util.h tests/mpi/coll_util.h

check_PROGRAMS += \
	tests/mpi/coll_intra \
	tests/mpi/coll_inter \
	tests/mpi/coll_errors \
	tests/mpi/coll_zero_size

tests_mpi_coll_intra_SOURCES = tests/mpi/coll_intra.c $(coll_test_headers)
tests_mpi_coll_intra_CPPFLAGS = $(mpi_test_includes)
tests_mpi_coll_intra_LDADD = $(mpi_test_libs)
tests_mpi_coll_intra_LDFLAGS = $(mpi_test_link_flags)
tests_mpi_coll_inter_SOURCES = tests/mpi/coll_inter.c $(coll_test_headers)
tests_mpi_coll_inter_CPPFLAGS = $(mpi_test_includes)
tests_mpi_coll_inter_LDADD = $(mpi_test_libs)
tests_mpi_coll_inter_LDFLAGS = $(mpi_test_link_flags)
tests_mpi_coll_errors_SOURCES = tests/mpi/coll_errors.c tests/mpi/test_util.h
tests_mpi_coll_errors_CPPFLAGS = $(mpi_test_includes)
tests_mpi_coll_errors_LDADD = $(mpi_test_libs)
tests_mpi_coll_errors_LDFLAGS = $(mpi_test_link_flags)
tests_mpi_coll_zero_size_SOURCES = tests/mpi/coll_zero_size.c tests/mpi/test_util.h
tests_mpi_coll_zero_size_CPPFLAGS = $(mpi_test_includes)
tests_mpi_coll_zero_size_LDADD = $(mpi_test_libs)
tests_mpi_coll_zero_size_LDFLAGS = $(mpi_test_link_flags)

# Default configuration only: the collectives ride on point-to-point, which the transport
# configurations already cover. coll_intra at 1, 2, 3, 4 and 8 ranks; each coll_basic algorithm
# forced through its parameter (Plexus only; the references run the same checks unforced).
mpi_runs_extra += tests/mpi/default/coll_intra.sh tests/mpi/default/coll_intra_1.sh \
	tests/mpi/default/coll_intra_2.sh tests/mpi/default/coll_intra_3.sh \
	tests/mpi/default/coll_intra_4.sh tests/mpi/default/coll_barrier_dissemination.sh \
	tests/mpi/default/coll_bcast_binomial.sh tests/mpi/default/coll_bcast_scatter_allgather.sh \
	tests/mpi/default/coll_reduce_binomial.sh tests/mpi/default/coll_reduce_scatter_gather.sh \
	tests/mpi/default/coll_allreduce_recursive_doubling.sh \
	tests/mpi/default/coll_allreduce_rabenseifner.sh \
	tests/mpi/default/coll_allgather_recursive_doubling.sh tests/mpi/default/coll_allgather_ring.sh \
	tests/mpi/default/coll_allgather_bruck.sh tests/mpi/default/coll_alltoall_bruck.sh \
	tests/mpi/default/coll_alltoall_pairwise.sh tests/mpi/default/coll_bcast_linear.sh \
	tests/mpi/default/coll_allgather_linear.sh tests/mpi/default/coll_alltoall_linear.sh \
	tests/mpi/default/coll_intra_not_oversubscribed.sh tests/mpi/default/coll_intra_oversubscribed.sh \
	tests/mpi/default/coll_reduce_linear.sh tests/mpi/default/coll_barrier_linear.sh \
	tests/mpi/default/coll_reduce_segmented.sh tests/mpi/default/coll_allreduce_reduce_bcast.sh \
	tests/mpi/default/coll_reduce_direct.sh tests/mpi/default/coll_allreduce_direct.sh \
	tests/mpi/default/coll_bcast_pipeline.sh tests/mpi/default/coll_bcast_oversubscribed_large.sh \
	tests/mpi/default/coll_inter.sh \
	tests/mpi/default/coll_inter_3.sh tests/mpi/default/coll_errors.sh \
	tests/mpi/default/coll_zero_size.sh tests/mpi/default/coll_zero_size_2.sh \
	tests/mpi/default/coll_zero_size_5.sh

EXTRA_DIST += tests/mpi/cases/coll_intra.case tests/mpi/cases/coll_intra_1.case \
	tests/mpi/cases/coll_intra_2.case tests/mpi/cases/coll_intra_3.case \
	tests/mpi/cases/coll_intra_4.case tests/mpi/cases/coll_barrier_dissemination.case \
	tests/mpi/cases/coll_bcast_binomial.case tests/mpi/cases/coll_bcast_scatter_allgather.case \
	tests/mpi/cases/coll_reduce_binomial.case tests/mpi/cases/coll_reduce_scatter_gather.case \
	tests/mpi/cases/coll_allreduce_recursive_doubling.case \
	tests/mpi/cases/coll_allreduce_rabenseifner.case \
	tests/mpi/cases/coll_allgather_recursive_doubling.case tests/mpi/cases/coll_allgather_ring.case \
	tests/mpi/cases/coll_allgather_bruck.case tests/mpi/cases/coll_alltoall_bruck.case \
	tests/mpi/cases/coll_alltoall_pairwise.case tests/mpi/cases/coll_bcast_linear.case \
	tests/mpi/cases/coll_allgather_linear.case tests/mpi/cases/coll_alltoall_linear.case \
	tests/mpi/cases/coll_intra_not_oversubscribed.case tests/mpi/cases/coll_intra_oversubscribed.case \
	tests/mpi/cases/coll_reduce_linear.case tests/mpi/cases/coll_barrier_linear.case \
	tests/mpi/cases/coll_reduce_segmented.case tests/mpi/cases/coll_allreduce_reduce_bcast.case \
	tests/mpi/cases/coll_reduce_direct.case tests/mpi/cases/coll_allreduce_direct.case \
	tests/mpi/cases/coll_bcast_pipeline.case tests/mpi/cases/coll_bcast_oversubscribed_large.case \
	tests/mpi/cases/coll_inter.case \
	tests/mpi/cases/coll_inter_3.case tests/mpi/cases/coll_errors.case \
	tests/mpi/cases/coll_zero_size.case tests/mpi/cases/coll_zero_size_2.case \
	tests/mpi/cases/coll_zero_size_5.case
