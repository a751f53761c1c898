# GoogleTest units of the MPI layer's parts that need no PML (framework/mpi/libmpi_base.la):
# error codes, datatypes, argument checks, the request pool, the Bsend allocator and the memory
# of MPI_Alloc_mem.
if HAVE_GTEST
mpi_unit_tests = \
	tests/unit/test_mpi_error_codes tests/unit/test_mpi_datatype \
	tests/unit/test_mpi_arg_check tests/unit/test_mpi_request_pool \
	tests/unit/test_mpi_bsend_buffer tests/unit/test_mpi_shareable_memory
check_PROGRAMS += $(mpi_unit_tests)
TESTS += $(mpi_unit_tests)
MPI_UNIT_LDADD = framework/mpi/libmpi_base.la framework/libplexus.la $(GTEST_LIBS) $(HWLOC_LIBS)
tests_unit_test_mpi_error_codes_CPPFLAGS = $(AM_CPPFLAGS) $(MPI_CPPFLAGS)
tests_unit_test_mpi_error_codes_LDADD = $(MPI_UNIT_LDADD)
# The C side of the datatype test: sizeof of the C types as a C compiler sees them.
tests_unit_test_mpi_datatype_SOURCES = tests/unit/test_mpi_datatype.cc tests/unit/mpi_c_type_sizes.c
tests_unit_test_mpi_datatype_CPPFLAGS = $(AM_CPPFLAGS) $(MPI_CPPFLAGS)
tests_unit_test_mpi_datatype_CFLAGS = $(AM_CFLAGS) -std=c11
tests_unit_test_mpi_datatype_LDADD = $(MPI_UNIT_LDADD)
tests_unit_test_mpi_arg_check_CPPFLAGS = $(AM_CPPFLAGS) $(MPI_CPPFLAGS)
tests_unit_test_mpi_arg_check_LDADD = $(MPI_UNIT_LDADD)
tests_unit_test_mpi_request_pool_CPPFLAGS = $(AM_CPPFLAGS) $(MPI_CPPFLAGS)
tests_unit_test_mpi_request_pool_LDADD = $(MPI_UNIT_LDADD)
tests_unit_test_mpi_bsend_buffer_CPPFLAGS = $(AM_CPPFLAGS) $(MPI_CPPFLAGS)
tests_unit_test_mpi_bsend_buffer_LDADD = $(MPI_UNIT_LDADD)
tests_unit_test_mpi_shareable_memory_CPPFLAGS = $(AM_CPPFLAGS) $(MPI_CPPFLAGS)
tests_unit_test_mpi_shareable_memory_LDADD = $(MPI_UNIT_LDADD)
endif
