# bench/coll_inter: inter-communicator collective latency of Plexus (coll_shm_inter, coll_basic),
# Open MPI and MPICH (bench/coll_inter/README.md). The program is built by make check too, so it
# keeps compiling; run.sh builds its own copies with each implementation's compiler wrapper.
#   make bench-coll-inter BENCH_COLL_INTER_FLAGS="--quick --groups 1+3"
EXTRA_DIST += bench/coll_inter/README.md bench/coll_inter/run.sh bench/coll_inter/report.awk \
	bench/coll_inter/plot.sh
if PLEXUS_BENCH
check_PROGRAMS += bench/coll_inter/coll_inter_bench
endif
bench_coll_inter_coll_inter_bench_SOURCES = bench/coll_inter/coll_inter_bench.c
bench_coll_inter_coll_inter_bench_CPPFLAGS = $(MPI_CPPFLAGS)
bench_coll_inter_coll_inter_bench_LDADD = framework/mpi/libmpi.la
BENCH_COLL_INTER_FLAGS =
bench-coll-inter:
	-$(MAKE) $(AM_MAKEFLAGS) $(bench_coll_plexus)
	$(SHELL) $(top_srcdir)/bench/coll_inter/run.sh $(abs_top_builddir) '$(BENCH_RESULTS)/coll_inter' $(BENCH_COLL_INTER_FLAGS)
.PHONY: bench-coll-inter
