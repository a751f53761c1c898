# GoogleTest units of framework/mpi/osc: the services osc modules get (datatype descriptions,
# operation numbers, mem_range, byte ranges) and the type signature check. The services table
# lives in libmpi, so this links it (MPI is not started: no service used here needs the PML).
if HAVE_GTEST
osc_unit_tests = tests/unit/test_mpi_osc_services
check_PROGRAMS += $(osc_unit_tests)
TESTS += $(osc_unit_tests)
tests_unit_test_mpi_osc_services_CPPFLAGS = $(AM_CPPFLAGS) $(MPI_CPPFLAGS)
tests_unit_test_mpi_osc_services_LDADD = framework/mpi/libmpi.la $(LDADD)
endif
