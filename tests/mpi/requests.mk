# MPI programs of tests/mpi (requests): MPI_Cancel of sends, generalized requests, the status
# setters. cancel_send runs in every transport configuration (the cancel races its message on
# whichever channel it took); the others do not depend on the transport.
check_PROGRAMS += tests/mpi/cancel_send tests/mpi/grequest tests/mpi/status_set

tests_mpi_cancel_send_SOURCES = tests/mpi/cancel_send.c tests/mpi/test_util.h
tests_mpi_cancel_send_CPPFLAGS = $(mpi_test_includes)
tests_mpi_cancel_send_LDADD = $(mpi_test_libs)
tests_mpi_cancel_send_LDFLAGS = $(mpi_test_link_flags)
# Generalized requests are completed from threads of their own.
tests_mpi_grequest_SOURCES = tests/mpi/grequest.c tests/mpi/test_util.h
tests_mpi_grequest_CPPFLAGS = $(mpi_test_includes)
tests_mpi_grequest_CFLAGS = $(AM_CFLAGS) -pthread
tests_mpi_grequest_LDADD = $(mpi_test_libs) -lpthread
tests_mpi_grequest_LDFLAGS = $(mpi_test_link_flags)
tests_mpi_status_set_SOURCES = tests/mpi/status_set.c tests/mpi/test_util.h
tests_mpi_status_set_CPPFLAGS = $(mpi_test_includes)
tests_mpi_status_set_LDADD = $(mpi_test_libs)
tests_mpi_status_set_LDFLAGS = $(mpi_test_link_flags)

mpi_runs_extra += tests/mpi/default/cancel_send.sh tests/mpi/self-sm/cancel_send.sh \
	tests/mpi/no-fastbox/cancel_send.sh tests/mpi/no-single-copy/cancel_send.sh \
	tests/mpi/cma-always/cancel_send.sh tests/mpi/default/cancel_send_3.sh \
	tests/mpi/no-fastbox/cancel_send_4.sh tests/mpi/default/cancel_send_finalize.sh \
	tests/mpi/self-sm/cancel_send_finalize.sh \
	tests/mpi/default/grequest.sh tests/mpi/default/grequest_2.sh tests/mpi/default/grequest_4.sh \
	tests/mpi/default/status_set.sh
EXTRA_DIST += tests/mpi/cases/cancel_send.case tests/mpi/cases/cancel_send_3.case \
	tests/mpi/cases/cancel_send_4.case tests/mpi/cases/cancel_send_finalize.case tests/mpi/cases/grequest.case tests/mpi/cases/grequest_2.case \
	tests/mpi/cases/grequest_4.case tests/mpi/cases/status_set.case
