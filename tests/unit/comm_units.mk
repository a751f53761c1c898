# GoogleTest units of framework/mpi/comm/ (groups, context ids and their agreement, split
# ordering, communicator comparison): added to TESTS inside if HAVE_GTEST.
if HAVE_GTEST
comm_unit_tests = tests/unit/test_mpi_group tests/unit/test_mpi_context_id tests/unit/test_mpi_comm_construct
check_PROGRAMS += $(comm_unit_tests)
TESTS += $(comm_unit_tests)
tests_unit_test_mpi_group_CPPFLAGS = $(AM_CPPFLAGS) $(MPI_CPPFLAGS)
tests_unit_test_mpi_group_LDADD = $(MPI_UNIT_LDADD)
tests_unit_test_mpi_context_id_CPPFLAGS = $(AM_CPPFLAGS) $(MPI_CPPFLAGS)
tests_unit_test_mpi_context_id_LDADD = $(MPI_UNIT_LDADD) -lpthread
tests_unit_test_mpi_comm_construct_CPPFLAGS = $(AM_CPPFLAGS) $(MPI_CPPFLAGS)
tests_unit_test_mpi_comm_construct_LDADD = $(MPI_UNIT_LDADD)
endif
# Communicator lifetimes: the registry lives in libmpi (it talks to the PML), so this one links it.
if HAVE_GTEST
comm_registry_unit_tests = tests/unit/test_mpi_comm_registry
check_PROGRAMS += $(comm_registry_unit_tests)
TESTS += $(comm_registry_unit_tests)
tests_unit_test_mpi_comm_registry_CPPFLAGS = $(AM_CPPFLAGS) $(MPI_CPPFLAGS)
tests_unit_test_mpi_comm_registry_LDADD = framework/mpi/libmpi.la $(LDADD)
endif
