# MPI programs of tests/mpi for the osc_sm component (components/osc_sm/README.md): windows over
# MPI_Alloc_mem memory served by load/store in shared memory. osc_sm_epochs: fence, a PSCW ring
# with MPI_Win_test, an exclusive-lock counter and untorn pairs, derived datatypes at both ends,
# a zero-size window (1, 4 and 8 ranks); with --static the same program on heap memory, which
# osc_sm declines and osc_rdma serves (the trace checked), and `osc ^sm` sending Alloc_mem
# windows to osc_rdma. osc_sm_accumulate: every predefined op from every rank into every rank at
# once, in a fence epoch and under shared locks. osc_sm_passive (the osc_passive program of
# osc_async.mk): lock epochs complete while the target computes outside MPI. osc_sm_errors: MPI_ERR_RMA_SYNC and
# MPI_ERR_DISP with their messages. win_rdma_sm: the existing win_rdma program with osc_sm
# first (its Alloc_mem window goes to osc_sm, its static one to osc_rdma). osc_sm_death: a rank
# killed holding a window's exclusive lock ends the job.
check_PROGRAMS += tests/mpi/osc_sm_epochs tests/mpi/osc_sm_accumulate tests/mpi/osc_sm_errors tests/mpi/osc_sm_death

tests_mpi_osc_sm_epochs_SOURCES = tests/mpi/osc_sm_epochs.c tests/mpi/test_util.h
tests_mpi_osc_sm_epochs_CPPFLAGS = $(mpi_test_includes)
tests_mpi_osc_sm_epochs_LDADD = $(mpi_test_libs)
tests_mpi_osc_sm_epochs_LDFLAGS = $(mpi_test_link_flags)
tests_mpi_osc_sm_accumulate_SOURCES = tests/mpi/osc_sm_accumulate.c tests/mpi/test_util.h
tests_mpi_osc_sm_accumulate_CPPFLAGS = $(mpi_test_includes)
tests_mpi_osc_sm_accumulate_LDADD = $(mpi_test_libs)
tests_mpi_osc_sm_accumulate_LDFLAGS = $(mpi_test_link_flags)
tests_mpi_osc_sm_errors_SOURCES = tests/mpi/osc_sm_errors.c tests/mpi/test_util.h
tests_mpi_osc_sm_errors_CPPFLAGS = $(mpi_test_includes)
tests_mpi_osc_sm_errors_LDADD = $(mpi_test_libs)
tests_mpi_osc_sm_errors_LDFLAGS = $(mpi_test_link_flags)
tests_mpi_osc_sm_death_SOURCES = tests/mpi/osc_sm_death.c
tests_mpi_osc_sm_death_CPPFLAGS = $(mpi_test_includes)
tests_mpi_osc_sm_death_LDADD = $(mpi_test_libs)
tests_mpi_osc_sm_death_LDFLAGS = $(mpi_test_link_flags)

mpi_runs_extra += tests/mpi/default/osc_sm_epochs.sh tests/mpi/default/osc_sm_epochs_1.sh \
	tests/mpi/default/osc_sm_epochs_8.sh tests/mpi/default/osc_sm_fallback.sh \
	tests/mpi/default/osc_sm_excluded.sh tests/mpi/default/osc_sm_accumulate.sh \
	tests/mpi/default/osc_sm_accumulate_7.sh tests/mpi/default/osc_sm_passive.sh \
	tests/mpi/default/osc_sm_passive_2.sh tests/mpi/default/osc_sm_errors.sh \
	tests/mpi/default/win_rdma_sm.sh tests/mpi/default/osc_sm_death.sh
EXTRA_DIST += tests/mpi/cases/osc_sm_epochs.case tests/mpi/cases/osc_sm_epochs_1.case \
	tests/mpi/cases/osc_sm_epochs_8.case tests/mpi/cases/osc_sm_fallback.case \
	tests/mpi/cases/osc_sm_excluded.case tests/mpi/cases/osc_sm_accumulate.case \
	tests/mpi/cases/osc_sm_accumulate_7.case tests/mpi/cases/osc_sm_passive.case \
	tests/mpi/cases/osc_sm_passive_2.case tests/mpi/cases/osc_sm_errors.case \
	tests/mpi/cases/win_rdma_sm.case tests/mpi/cases/osc_sm_death.case
