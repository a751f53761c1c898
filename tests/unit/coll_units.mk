# GoogleTest units of framework/mpi/coll and components/coll_basic.

# coll_basic (C3): the schedule arithmetic, and the intra- and inter-communicator algorithms over a
# fake MPI layer (coll_basic_fake.h: one thread per rank), compiled from the component's own sources.
if HAVE_GTEST
coll_basic_unit_tests = tests/unit/test_coll_basic_schedule tests/unit/test_coll_basic_intra \
	tests/unit/test_coll_basic_scratch tests/unit/test_coll_basic_inter tests/unit/test_coll_basic_choice
check_PROGRAMS += $(coll_basic_unit_tests)
TESTS += $(coll_basic_unit_tests)
COLL_BASIC_INTRA_SOURCES = components/coll_basic/basic_schedule.cc components/coll_basic/basic_params.cc \
	components/coll_basic/basic_choice.cc \
	components/coll_basic/basic_scratch.cc \
	components/coll_basic/intra_context.cc components/coll_basic/intra_halving.cc \
	components/coll_basic/intra_direct.cc \
	components/coll_basic/intra_barrier.cc components/coll_basic/intra_bcast.cc \
	components/coll_basic/intra_reduce.cc components/coll_basic/intra_reduce_pipeline.cc \
	components/coll_basic/intra_allreduce.cc components/coll_basic/intra_gather.cc \
	components/coll_basic/intra_scatter.cc \
	components/coll_basic/intra_allgather.cc components/coll_basic/intra_alltoall.cc \
	components/coll_basic/intra_alltoallv.cc components/coll_basic/intra_reduce_scatter.cc \
	components/coll_basic/intra_scan.cc
tests_unit_test_coll_basic_schedule_SOURCES = tests/unit/test_coll_basic_schedule.cc \
	components/coll_basic/basic_schedule.cc
tests_unit_test_coll_basic_schedule_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)
tests_unit_test_coll_basic_choice_SOURCES = tests/unit/test_coll_basic_choice.cc \
	components/coll_basic/basic_choice.cc components/coll_basic/basic_params.cc \
	components/coll_basic/basic_schedule.cc components/coll_basic/basic_scratch.cc
tests_unit_test_coll_basic_choice_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)
tests_unit_test_coll_basic_scratch_SOURCES = tests/unit/test_coll_basic_scratch.cc \
	components/coll_basic/basic_scratch.cc
tests_unit_test_coll_basic_scratch_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)
tests_unit_test_coll_basic_intra_SOURCES = tests/unit/test_coll_basic_intra.cc $(COLL_BASIC_INTRA_SOURCES)
tests_unit_test_coll_basic_intra_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)
tests_unit_test_coll_basic_intra_LDADD = $(LDADD) -lpthread
# The inter-communicator algorithms, their local phases served by the intra ones (the fake's dispatch).
tests_unit_test_coll_basic_inter_SOURCES = tests/unit/test_coll_basic_inter.cc $(COLL_BASIC_INTRA_SOURCES) \
	components/coll_basic/inter_support.cc components/coll_basic/inter_barrier.cc \
	components/coll_basic/inter_bcast.cc components/coll_basic/inter_reduce.cc \
	components/coll_basic/inter_allreduce.cc components/coll_basic/inter_gather.cc \
	components/coll_basic/inter_gatherv.cc components/coll_basic/inter_scatter.cc \
	components/coll_basic/inter_scatterv.cc components/coll_basic/inter_allgather.cc \
	components/coll_basic/inter_allgatherv.cc components/coll_basic/inter_alltoall.cc \
	components/coll_basic/inter_reduce_scatter.cc
tests_unit_test_coll_basic_inter_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)
tests_unit_test_coll_basic_inter_LDADD = $(LDADD) -lpthread
endif
noinst_HEADERS += tests/unit/coll_basic_fake.h

# The COLL framework (C1): chains, preference, DECLINE fallback and failure messages over a
# hand-made table, tag mapping, typed local copies. Dispatch lives in libmpi, so this links it.
if HAVE_GTEST
coll_framework_unit_tests = tests/unit/test_mpi_coll_framework
check_PROGRAMS += $(coll_framework_unit_tests)
TESTS += $(coll_framework_unit_tests)
tests_unit_test_mpi_coll_framework_CPPFLAGS = $(AM_CPPFLAGS) $(MPI_CPPFLAGS)
tests_unit_test_mpi_coll_framework_LDADD = framework/mpi/libmpi.la $(LDADD)
endif
