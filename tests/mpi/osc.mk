# MPI programs of tests/mpi for one-sided communication (docs/one-sided.md): the MPI layer of the
# OSC framework with the osc_good test component (tests/plugins), which serves windows of one
# process and moves no data: creation, attributes, keyvals, names, error handlers, every misuse's
# class and message, selection and its fallback; and win_rdma, end to end through osc_rdma at 2 and
# 4 ranks. Plexus only (they name components); default configuration only.
check_PROGRAMS += tests/mpi/win_basic tests/mpi/win_errors tests/mpi/win_select tests/mpi/win_rdma

tests_mpi_win_basic_SOURCES = tests/mpi/win_basic.c tests/mpi/win_util.h tests/mpi/test_util.h
tests_mpi_win_basic_CPPFLAGS = $(mpi_test_includes)
tests_mpi_win_basic_LDADD = $(mpi_test_libs)
tests_mpi_win_basic_LDFLAGS = $(mpi_test_link_flags)
tests_mpi_win_errors_SOURCES = tests/mpi/win_errors.c tests/mpi/win_util.h tests/mpi/test_util.h
tests_mpi_win_errors_CPPFLAGS = $(mpi_test_includes)
tests_mpi_win_errors_LDADD = $(mpi_test_libs)
tests_mpi_win_errors_LDFLAGS = $(mpi_test_link_flags)
tests_mpi_win_select_SOURCES = tests/mpi/win_select.c tests/mpi/win_util.h tests/mpi/test_util.h
tests_mpi_win_select_CPPFLAGS = $(mpi_test_includes)
tests_mpi_win_select_LDADD = $(mpi_test_libs)
tests_mpi_win_select_LDFLAGS = $(mpi_test_link_flags)
# End to end through the osc_rdma component (components/osc_rdma), per protocol.
tests_mpi_win_rdma_SOURCES = tests/mpi/win_rdma.c tests/mpi/test_util.h
tests_mpi_win_rdma_CPPFLAGS = $(mpi_test_includes)
tests_mpi_win_rdma_LDADD = $(mpi_test_libs)
tests_mpi_win_rdma_LDFLAGS = $(mpi_test_link_flags)

mpi_runs_extra += tests/mpi/default/win_basic.sh tests/mpi/default/win_fatal.sh tests/mpi/default/win_errors.sh tests/mpi/default/win_select.sh \
	tests/mpi/default/win_select_fallback.sh \
	tests/mpi/default/win_rdma.sh tests/mpi/default/win_rdma_sendrecv.sh tests/mpi/default/win_rdma_buffered.sh tests/mpi/default/win_rdma_rma.sh \
	tests/mpi/default/win_rdma_2.sh
EXTRA_DIST += tests/mpi/cases/win_basic.case tests/mpi/cases/win_fatal.case tests/mpi/cases/win_errors.case tests/mpi/cases/win_select.case \
	tests/mpi/cases/win_select_fallback.case \
	tests/mpi/cases/win_rdma.case tests/mpi/cases/win_rdma_sendrecv.case tests/mpi/cases/win_rdma_buffered.case tests/mpi/cases/win_rdma_rma.case \
	tests/mpi/cases/win_rdma_2.case
