# MPI programs of tests/mpi (attrs): attributes, error handlers and classes, info. Standard
# MPI-2.2 C that also passes with Open MPI and MPICH (tests/mpi/README.md); attr_util.h has the
# error checks they share. Each case runs in the default configuration only: none of them
# depends on the transport.
attr_test_headers = tests/mpi/test_util.h tests/mpi/attr_util.h

check_PROGRAMS += \
	tests/mpi/attr_callbacks \
	tests/mpi/attr_predefined \
	tests/mpi/errhandler_user \
	tests/mpi/errhandler_codes \
	tests/mpi/errhandler_fatal_call \
	tests/mpi/info

tests_mpi_attr_callbacks_SOURCES = tests/mpi/attr_callbacks.c $(attr_test_headers)
tests_mpi_attr_callbacks_CPPFLAGS = $(mpi_test_includes)
tests_mpi_attr_callbacks_LDADD = $(mpi_test_libs)
tests_mpi_attr_callbacks_LDFLAGS = $(mpi_test_link_flags)
tests_mpi_attr_predefined_SOURCES = tests/mpi/attr_predefined.c $(attr_test_headers)
tests_mpi_attr_predefined_CPPFLAGS = $(mpi_test_includes)
tests_mpi_attr_predefined_LDADD = $(mpi_test_libs)
tests_mpi_attr_predefined_LDFLAGS = $(mpi_test_link_flags)
tests_mpi_errhandler_user_SOURCES = tests/mpi/errhandler_user.c $(attr_test_headers)
tests_mpi_errhandler_user_CPPFLAGS = $(mpi_test_includes)
tests_mpi_errhandler_user_LDADD = $(mpi_test_libs)
tests_mpi_errhandler_user_LDFLAGS = $(mpi_test_link_flags)
tests_mpi_errhandler_codes_SOURCES = tests/mpi/errhandler_codes.c $(attr_test_headers)
tests_mpi_errhandler_codes_CPPFLAGS = $(mpi_test_includes)
tests_mpi_errhandler_codes_LDADD = $(mpi_test_libs)
tests_mpi_errhandler_codes_LDFLAGS = $(mpi_test_link_flags)
tests_mpi_errhandler_fatal_call_SOURCES = tests/mpi/errhandler_fatal_call.c tests/mpi/test_util.h
tests_mpi_errhandler_fatal_call_CPPFLAGS = $(mpi_test_includes)
tests_mpi_errhandler_fatal_call_LDADD = $(mpi_test_libs)
tests_mpi_errhandler_fatal_call_LDFLAGS = $(mpi_test_link_flags)
tests_mpi_info_SOURCES = tests/mpi/info.c $(attr_test_headers)
tests_mpi_info_CPPFLAGS = $(mpi_test_includes)
tests_mpi_info_LDADD = $(mpi_test_libs)
tests_mpi_info_LDFLAGS = $(mpi_test_link_flags)

mpi_runs_extra += tests/mpi/default/attr_callbacks.sh tests/mpi/default/attr_predefined.sh \
	tests/mpi/default/errhandler_user.sh tests/mpi/default/errhandler_codes.sh \
	tests/mpi/default/errhandler_fatal_call.sh tests/mpi/default/info.sh
EXTRA_DIST += tests/mpi/cases/attr_callbacks.case tests/mpi/cases/attr_predefined.case \
	tests/mpi/cases/errhandler_user.case tests/mpi/cases/errhandler_codes.case \
	tests/mpi/cases/errhandler_fatal_call.case tests/mpi/cases/info.case
