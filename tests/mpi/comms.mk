# MPI programs of tests/mpi (comms): check_PROGRAMS, their flags, and the runs they add
# to mpi_runs_extra (tests/mpi/CONFIG/CASE.sh) and EXTRA_DIST (case files).
# Groups, communicators and inter-communicators (tests/mpi/README.md, "Groups and
# communicators"); comm_util.h is their shared model and traffic checker.
check_PROGRAMS += \
	tests/mpi/group_ops \
	tests/mpi/comm_ops \
	tests/mpi/comm_inter \
	tests/mpi/comm_scale \
	tests/mpi/comm_errors

tests_mpi_group_ops_SOURCES = tests/mpi/group_ops.c tests/mpi/comm_util.h tests/mpi/test_util.h
tests_mpi_group_ops_CPPFLAGS = $(mpi_test_includes)
tests_mpi_group_ops_LDADD = $(mpi_test_libs)
tests_mpi_group_ops_LDFLAGS = $(mpi_test_link_flags)
tests_mpi_comm_ops_SOURCES = tests/mpi/comm_ops.c tests/mpi/comm_util.h tests/mpi/test_util.h
tests_mpi_comm_ops_CPPFLAGS = $(mpi_test_includes)
tests_mpi_comm_ops_LDADD = $(mpi_test_libs)
tests_mpi_comm_ops_LDFLAGS = $(mpi_test_link_flags)
tests_mpi_comm_inter_SOURCES = tests/mpi/comm_inter.c tests/mpi/comm_util.h tests/mpi/test_util.h
tests_mpi_comm_inter_CPPFLAGS = $(mpi_test_includes)
tests_mpi_comm_inter_LDADD = $(mpi_test_libs)
tests_mpi_comm_inter_LDFLAGS = $(mpi_test_link_flags)
tests_mpi_comm_scale_SOURCES = tests/mpi/comm_scale.c tests/mpi/comm_util.h tests/mpi/test_util.h
tests_mpi_comm_scale_CPPFLAGS = $(mpi_test_includes)
tests_mpi_comm_scale_LDADD = $(mpi_test_libs)
tests_mpi_comm_scale_LDFLAGS = $(mpi_test_link_flags)
tests_mpi_comm_errors_SOURCES = tests/mpi/comm_errors.c tests/mpi/comm_util.h tests/mpi/test_util.h
tests_mpi_comm_errors_CPPFLAGS = $(mpi_test_includes)
tests_mpi_comm_errors_LDADD = $(mpi_test_libs)
tests_mpi_comm_errors_LDFLAGS = $(mpi_test_link_flags)

# The default configuration is enough: these exercise communicator bookkeeping, not transports.
mpi_runs_extra += tests/mpi/default/group_ops.sh tests/mpi/default/group_ops_1.sh \
	tests/mpi/default/comm_ops.sh tests/mpi/default/comm_ops_3.sh tests/mpi/default/comm_ops_1.sh \
	tests/mpi/default/comm_inter.sh tests/mpi/default/comm_inter_5.sh \
	tests/mpi/default/comm_inter_2.sh tests/mpi/default/comm_scale.sh \
	tests/mpi/default/comm_errors.sh

EXTRA_DIST += tests/mpi/cases/group_ops.case tests/mpi/cases/group_ops_1.case \
	tests/mpi/cases/comm_ops.case tests/mpi/cases/comm_ops_3.case tests/mpi/cases/comm_ops_1.case \
	tests/mpi/cases/comm_inter.case tests/mpi/cases/comm_inter_5.case \
	tests/mpi/cases/comm_inter_2.case tests/mpi/cases/comm_scale.case \
	tests/mpi/cases/comm_errors.case tests/mpi/comm_scale.supp
