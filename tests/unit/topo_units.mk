# GoogleTest units of framework/mpi/topo/ (the Cartesian reordering on made-up machines).
if HAVE_GTEST
topo_unit_tests = tests/unit/test_mpi_grid_map
check_PROGRAMS += $(topo_unit_tests)
TESTS += $(topo_unit_tests)
tests_unit_test_mpi_grid_map_CPPFLAGS = $(AM_CPPFLAGS) $(MPI_CPPFLAGS)
tests_unit_test_mpi_grid_map_LDADD = $(MPI_UNIT_LDADD)
endif
