# MPI programs of tests/mpi for passive target without the target (issue 18 item 4) and
# MPI_Win_free inside an epoch. osc_passive: rank 0 computes outside MPI while every other rank
# runs exclusive and shared lock epochs on it (put, get, accumulate, a marker that proves rank 0
# was computing), over MPI_Alloc_mem memory (osc_sm: the osc_sm_passive cases) and over heap and
# static memory (osc_rdma with osc_rdma_async_progress on; off, the same program must give up,
# which shows that it can fail). win_free_epoch: MPI_Win_free refused inside a lock, an access
# and an exposure epoch with MPI_ERR_RMA_SYNC, the window kept usable (osc_sm and osc_rdma).
# osc_rdma_async_accumulate: osc_sm_accumulate's every-op concurrency on heap memory (osc_rdma's
# read-operation-write under the accumulate lock, and under exclusive locks without it). osc_rdma_async_death: osc_sm_death --static, a
# rank killed holding the control segment's lock word ends the job.
check_PROGRAMS += tests/mpi/osc_passive tests/mpi/win_free_epoch

tests_mpi_osc_passive_SOURCES = tests/mpi/osc_passive.c tests/mpi/test_util.h
tests_mpi_osc_passive_CPPFLAGS = $(mpi_test_includes)
tests_mpi_osc_passive_LDADD = $(mpi_test_libs)
tests_mpi_osc_passive_LDFLAGS = $(mpi_test_link_flags)
tests_mpi_win_free_epoch_SOURCES = tests/mpi/win_free_epoch.c tests/mpi/test_util.h
tests_mpi_win_free_epoch_CPPFLAGS = $(mpi_test_includes)
tests_mpi_win_free_epoch_LDADD = $(mpi_test_libs)
tests_mpi_win_free_epoch_LDFLAGS = $(mpi_test_link_flags)

mpi_runs_extra += tests/mpi/default/osc_rdma_async.sh tests/mpi/default/osc_rdma_async_2.sh \
	tests/mpi/default/osc_rdma_async_off.sh tests/mpi/default/win_free_epoch.sh \
	tests/mpi/default/win_free_epoch_static.sh tests/mpi/default/osc_rdma_async_accumulate.sh \
	tests/mpi/default/osc_rdma_async_death.sh
EXTRA_DIST += tests/mpi/cases/osc_rdma_async.case tests/mpi/cases/osc_rdma_async_2.case \
	tests/mpi/cases/osc_rdma_async_off.case tests/mpi/cases/win_free_epoch.case \
	tests/mpi/cases/win_free_epoch_static.case tests/mpi/cases/osc_rdma_async_accumulate.case \
	tests/mpi/cases/osc_rdma_async_death.case
