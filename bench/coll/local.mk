# bench/coll: collective latency of Plexus, Open MPI and MPICH (bench/coll/README.md).
# coll_bench is built by make check too (against libmpi), so it keeps compiling; run.sh builds its
# own copies with each implementation's compiler wrapper and runs them in the same invocation.
# Options for the runner go in BENCH_COLL_FLAGS, e.g.
#   make bench-coll BENCH_COLL_FLAGS="--quick --impl openmpi,mpich"
EXTRA_DIST += bench/coll/README.md bench/coll/run.sh bench/coll/aggregate.awk bench/coll/report.awk \
	bench/coll/plot.sh bench/lib/common.sh
if PLEXUS_BENCH
check_PROGRAMS += bench/coll/coll_bench
endif
bench_coll_coll_bench_SOURCES = bench/coll/coll_bench.c bench/coll/coll_options.h \
	bench/coll/coll_options.c bench/coll/collectives.h bench/coll/collectives.c \
	bench/pt2pt/buffers.h bench/pt2pt/buffers.c bench/pt2pt/affinity.h bench/pt2pt/affinity.c \
	bench/pt2pt/p2p_sync.h bench/pt2pt/p2p_sync.c bench/lib/cli_numbers.h bench/lib/cli_numbers.c
bench_coll_coll_bench_CPPFLAGS = $(MPI_CPPFLAGS) -I$(top_srcdir)/bench/lib
bench_coll_coll_bench_LDADD = framework/mpi/libmpi.la
bench_coll_plexus = framework/mpi/libmpi.la tools/mpicc/mpicc-build-tree
if HAVE_PMIX
bench_coll_plexus += tools/plexrun/plexrun$(EXEEXT)
endif
BENCH_COLL_FLAGS =
bench-coll:
	-$(MAKE) $(AM_MAKEFLAGS) $(bench_coll_plexus)
	$(SHELL) $(top_srcdir)/bench/coll/run.sh $(abs_top_builddir) '$(BENCH_RESULTS)/coll' $(BENCH_COLL_FLAGS)
# The same programs timed as osu_bcast times them (bench/coll/README.md, "Two ways of timing").
bench-coll-osu:
	-$(MAKE) $(AM_MAKEFLAGS) $(bench_coll_plexus)
	$(SHELL) $(top_srcdir)/bench/coll/run.sh $(abs_top_builddir) '$(BENCH_RESULTS)/coll-osu' --mode osu $(BENCH_COLL_FLAGS)
.PHONY: bench-coll bench-coll-osu
