# MPI programs of tests/mpi over btl_tcp (components/btl_tcp/README.md): the configuration "tcp"
# (`btl tcp,self`: every pair of ranks over loopback sockets) runs a representative set of the
# point-to-point, communicator and collective cases at 2-8 ranks, and tcp_foreign has strangers
# connect to a rank's port without the job secret (Plexus only).
check_PROGRAMS += tests/mpi/tcp_foreign

tests_mpi_tcp_foreign_SOURCES = tests/mpi/tcp_foreign.c tests/mpi/test_util.h
tests_mpi_tcp_foreign_CPPFLAGS = $(mpi_test_includes)
tests_mpi_tcp_foreign_LDADD = $(mpi_test_libs)
tests_mpi_tcp_foreign_LDFLAGS = $(mpi_test_link_flags)

mpi_runs_extra += tests/mpi/tcp/pingpong.sh tests/mpi/tcp/ring.sh tests/mpi/tcp/ordering.sh \
	tests/mpi/tcp/allpairs_stress.sh tests/mpi/tcp/unexpected.sh tests/mpi/tcp/truncation.sh \
	tests/mpi/tcp/ssend.sh tests/mpi/tcp/probe.sh tests/mpi/tcp/unreceived.sh \
	tests/mpi/tcp/comm_ops.sh tests/mpi/tcp/comm_inter_5.sh tests/mpi/tcp/coll_intra_3.sh \
	tests/mpi/tcp/coll_intra.sh tests/mpi/tcp/tcp_foreign.sh
EXTRA_DIST += tests/mpi/configs/tcp.conf tests/mpi/cases/tcp_foreign.case
