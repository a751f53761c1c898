# GoogleTest units of framework/mpi/coll (coll_basic's are in components/coll_basic/tests/).

# The COLL framework (C1): chains, preference, DECLINE fallback and failure messages over a
# hand-made table, tag mapping, typed local copies. Dispatch lives in libmpi, so this links it.
if HAVE_GTEST
coll_framework_unit_tests = tests/unit/test_mpi_coll_framework
check_PROGRAMS += $(coll_framework_unit_tests)
TESTS += $(coll_framework_unit_tests)
tests_unit_test_mpi_coll_framework_CPPFLAGS = $(AM_CPPFLAGS) $(MPI_CPPFLAGS)
tests_unit_test_mpi_coll_framework_LDADD = framework/mpi/libmpi.la $(LDADD)
endif
