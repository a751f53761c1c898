# GoogleTest units of framework/mpi/op: the predefined operations on every predefined type
# (test_mpi_op_table), derived types and user operations (test_mpi_op_apply), the argument checks
# of the reductions (test_mpi_op_check), the kernels of each instruction set against the baseline
# (test_mpi_op_kernels). libmpi_base only: no PML, no MPI_Init.
if HAVE_GTEST
op_unit_tests = tests/unit/test_mpi_op_table tests/unit/test_mpi_op_apply tests/unit/test_mpi_op_check \
	tests/unit/test_mpi_op_kernels
check_PROGRAMS += $(op_unit_tests)
TESTS += $(op_unit_tests)
tests_unit_test_mpi_op_table_CPPFLAGS = $(AM_CPPFLAGS) $(MPI_CPPFLAGS)
tests_unit_test_mpi_op_table_LDADD = $(MPI_UNIT_LDADD)
tests_unit_test_mpi_op_apply_CPPFLAGS = $(AM_CPPFLAGS) $(MPI_CPPFLAGS)
tests_unit_test_mpi_op_apply_LDADD = $(MPI_UNIT_LDADD)
tests_unit_test_mpi_op_check_CPPFLAGS = $(AM_CPPFLAGS) $(MPI_CPPFLAGS)
tests_unit_test_mpi_op_check_LDADD = $(MPI_UNIT_LDADD)
tests_unit_test_mpi_op_kernels_CPPFLAGS = $(AM_CPPFLAGS) $(MPI_CPPFLAGS)
tests_unit_test_mpi_op_kernels_LDADD = $(MPI_UNIT_LDADD)
endif
