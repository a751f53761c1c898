# Unit tests of the PML and BML over an in-process fake BTL (they link libmpi).
if HAVE_GTEST
pml_unit_tests = tests/unit/test_pml tests/unit/test_pml_typed tests/unit/test_pml_cancel
check_PROGRAMS += $(pml_unit_tests)
TESTS += $(pml_unit_tests)
# the process table (ids given again once nothing holds them) is the BML's input: one program
tests_unit_test_pml_SOURCES = tests/unit/test_pml.cc tests/unit/test_proc_table.cc
tests_unit_test_pml_CPPFLAGS = $(AM_CPPFLAGS) $(MPI_CPPFLAGS)
tests_unit_test_pml_LDADD = framework/mpi/libmpi.la $(LDADD)
# derived datatypes through send_pack and per-fragment unpacking (BTL 1.2), and a 1.1 module
tests_unit_test_pml_typed_CPPFLAGS = $(AM_CPPFLAGS) $(MPI_CPPFLAGS)
tests_unit_test_pml_typed_LDADD = framework/mpi/libmpi.la $(LDADD)
# MPI_Cancel of sends: withdrawn wherever the message is, matched ones kept, blocked ones skipped
tests_unit_test_pml_cancel_CPPFLAGS = $(AM_CPPFLAGS) $(MPI_CPPFLAGS)
tests_unit_test_pml_cancel_LDADD = framework/mpi/libmpi.la $(LDADD)
endif
noinst_HEADERS += tests/unit/fake_btl.h tests/unit/pml_pair.h
