# GoogleTest units of framework/mpi/ (datatype): added to TESTS inside if HAVE_GTEST.
# test_mpi_datatype (the predefined types) is in mpi_units.mk; these test the derived-type engine
# and the datatype calls' argument checks (libmpi_base: no PML, no MPI_Init).
if HAVE_GTEST
datatype_unit_tests = tests/unit/test_mpi_datatype_engine tests/unit/test_mpi_datatype_args \
	tests/unit/test_mpi_datatype_copy
check_PROGRAMS += $(datatype_unit_tests)
TESTS += $(datatype_unit_tests)
tests_unit_test_mpi_datatype_engine_CPPFLAGS = $(AM_CPPFLAGS) $(MPI_CPPFLAGS)
tests_unit_test_mpi_datatype_engine_LDADD = $(MPI_UNIT_LDADD)
tests_unit_test_mpi_datatype_args_CPPFLAGS = $(AM_CPPFLAGS) $(MPI_CPPFLAGS)
tests_unit_test_mpi_datatype_args_LDADD = $(MPI_UNIT_LDADD)
# the engine's copy loops, one length and one shape at a time (loop_copy.cc, copy_small.h)
tests_unit_test_mpi_datatype_copy_CPPFLAGS = $(AM_CPPFLAGS) $(MPI_CPPFLAGS)
tests_unit_test_mpi_datatype_copy_LDADD = $(MPI_UNIT_LDADD)
endif
