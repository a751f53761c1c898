# MPI programs of tests/mpi for the osc_rdma component (components/osc_rdma/README.md): fence
# epochs with put, get and accumulate, the ghost-cell update (one put per double and a strided
# target), PSCW rings with MPI_Win_test, a counter under exclusive locks; each protocol forced by
# osc_rdma_protocol, and the component's MPI_ERR_DISP / MPI_ERR_RMA_SYNC reports. Plain MPI-2.2:
# osc_rdma_epochs also passes under Open MPI and MPICH (the mca lines apply to Plexus only);
# osc_rdma_errors is Plexus only (the references accept two of its misuses). Default configuration.
check_PROGRAMS += tests/mpi/osc_rdma_epochs tests/mpi/osc_rdma_errors tests/mpi/osc_rdma_epoch_copy

tests_mpi_osc_rdma_epochs_SOURCES = tests/mpi/osc_rdma_epochs.c tests/mpi/test_util.h
tests_mpi_osc_rdma_epochs_CPPFLAGS = $(mpi_test_includes)
tests_mpi_osc_rdma_epochs_LDADD = $(mpi_test_libs)
tests_mpi_osc_rdma_epochs_LDFLAGS = $(mpi_test_link_flags)
tests_mpi_osc_rdma_errors_SOURCES = tests/mpi/osc_rdma_errors.c tests/mpi/test_util.h
tests_mpi_osc_rdma_errors_CPPFLAGS = $(mpi_test_includes)
tests_mpi_osc_rdma_errors_LDADD = $(mpi_test_libs)
tests_mpi_osc_rdma_errors_LDFLAGS = $(mpi_test_link_flags)
# osc_rdma_epoch_copy: the gets and large puts of fence and PSCW epochs by one single copy
# (rdma_epoch_copy.cc).
tests_mpi_osc_rdma_epoch_copy_SOURCES = tests/mpi/osc_rdma_epoch_copy.c tests/mpi/test_util.h
tests_mpi_osc_rdma_epoch_copy_CPPFLAGS = $(mpi_test_includes)
tests_mpi_osc_rdma_epoch_copy_LDADD = $(mpi_test_libs)
tests_mpi_osc_rdma_epoch_copy_LDFLAGS = $(mpi_test_link_flags)

mpi_runs_extra += tests/mpi/default/osc_rdma_epochs.sh tests/mpi/default/osc_rdma_epochs_2.sh \
	tests/mpi/default/osc_rdma_sendrecv.sh tests/mpi/default/osc_rdma_buffered.sh \
	tests/mpi/default/osc_rdma_rma.sh tests/mpi/default/osc_rdma_errors.sh \
	tests/mpi/default/osc_rdma_epoch_copy.sh tests/mpi/default/osc_rdma_epoch_copy_2.sh \
	tests/mpi/default/osc_rdma_epoch_copy_off.sh
EXTRA_DIST += tests/mpi/cases/osc_rdma_epochs.case tests/mpi/cases/osc_rdma_epochs_2.case \
	tests/mpi/cases/osc_rdma_sendrecv.case tests/mpi/cases/osc_rdma_buffered.case \
	tests/mpi/cases/osc_rdma_rma.case tests/mpi/cases/osc_rdma_errors.case \
	tests/mpi/cases/osc_rdma_epoch_copy.case tests/mpi/cases/osc_rdma_epoch_copy_2.case \
	tests/mpi/cases/osc_rdma_epoch_copy_off.case
