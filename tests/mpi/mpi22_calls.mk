# MPI programs of tests/mpi for the MPI-2.2 calls third-party programs need (issue 15):
# MPI_Alloc_mem / MPI_Free_mem, and reductions on MPI_AINT / MPI_OFFSET. alloc_mem runs in every
# configuration (its messages take each transport path); the reductions in the default one.
check_PROGRAMS += tests/mpi/alloc_mem tests/mpi/reduce_aint_offset

tests_mpi_alloc_mem_SOURCES = tests/mpi/alloc_mem.c tests/mpi/test_util.h
tests_mpi_alloc_mem_CPPFLAGS = $(mpi_test_includes)
tests_mpi_alloc_mem_LDADD = $(mpi_test_libs)
tests_mpi_alloc_mem_LDFLAGS = $(mpi_test_link_flags)
tests_mpi_reduce_aint_offset_SOURCES = tests/mpi/reduce_aint_offset.c tests/mpi/test_util.h
tests_mpi_reduce_aint_offset_CPPFLAGS = $(mpi_test_includes)
tests_mpi_reduce_aint_offset_LDADD = $(mpi_test_libs)
tests_mpi_reduce_aint_offset_LDFLAGS = $(mpi_test_link_flags)

mpi_runs_extra += tests/mpi/default/alloc_mem.sh tests/mpi/self-sm/alloc_mem.sh \
	tests/mpi/no-fastbox/alloc_mem.sh tests/mpi/no-single-copy/alloc_mem.sh \
	tests/mpi/cma-always/alloc_mem.sh tests/mpi/default/reduce_aint_offset.sh
EXTRA_DIST += tests/mpi/cases/alloc_mem.case tests/mpi/cases/reduce_aint_offset.case
