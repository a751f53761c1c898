# GoogleTest units of framework/mpi/ (attr): attribute caching and keys, info objects, the error
# classes and codes a program adds. Added to TESTS inside if HAVE_GTEST.
if HAVE_GTEST
attr_unit_tests = tests/unit/test_mpi_attributes tests/unit/test_mpi_info tests/unit/test_mpi_user_errors
check_PROGRAMS += $(attr_unit_tests)
TESTS += $(attr_unit_tests)
tests_unit_test_mpi_attributes_CPPFLAGS = $(AM_CPPFLAGS) $(MPI_CPPFLAGS)
tests_unit_test_mpi_attributes_LDADD = $(MPI_UNIT_LDADD)
tests_unit_test_mpi_info_CPPFLAGS = $(AM_CPPFLAGS) $(MPI_CPPFLAGS)
tests_unit_test_mpi_info_LDADD = $(MPI_UNIT_LDADD)
tests_unit_test_mpi_user_errors_CPPFLAGS = $(AM_CPPFLAGS) $(MPI_CPPFLAGS)
tests_unit_test_mpi_user_errors_LDADD = $(MPI_UNIT_LDADD)
endif
