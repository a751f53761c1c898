# bench/dpm: spawn latency, spawn rate, the long spawn / exchange / disconnect loop,
# Intercomm_merge latency and inter- vs intra-group latency of Plexus, Open MPI and MPICH
# (bench/dpm/README.md). run.sh builds dpm_bench with each implementation's compiler wrapper and
# runs all three in one invocation; Plexus is skipped, with the reason, while its libmpi cannot
# spawn. Options for the runner go in BENCH_DPM_FLAGS, e.g.
#   make bench-dpm BENCH_DPM_FLAGS="--quick --impl plexus,openmpi"
bench_dpm_sources = bench/dpm/dpm_bench.c bench/dpm/dpm_options.h bench/dpm/dpm_options.c \
	bench/dpm/dpm_spawn.h bench/dpm/dpm_spawn.c bench/dpm/dpm_merge.h bench/dpm/dpm_merge.c \
	bench/dpm/dpm_latency.h bench/dpm/dpm_latency.c bench/dpm/stall.h bench/dpm/stall.c
EXTRA_DIST += bench/dpm/README.md bench/dpm/run.sh bench/dpm/report.awk bench/dpm/plot.sh
# Built by make check too (against libmpi), so that it keeps compiling, and run by
# tests/build/bench_dpm.sh; run.sh builds its own copies with each implementation's wrapper.
check_PROGRAMS += bench/dpm/dpm_bench
bench_dpm_dpm_bench_SOURCES = $(bench_dpm_sources) bench/lib/cli_numbers.h bench/lib/cli_numbers.c
bench_dpm_dpm_bench_CPPFLAGS = $(MPI_CPPFLAGS) -I$(top_srcdir)/bench/lib
bench_dpm_dpm_bench_LDADD = framework/mpi/libmpi.la
bench_dpm_dpm_bench_LDFLAGS = -no-install
bench_dpm_plexus = framework/mpi/libmpi.la tools/mpicc/mpicc-build-tree
if HAVE_PMIX
bench_dpm_plexus += tools/plexrun/plexrun$(EXEEXT)
endif
BENCH_DPM_FLAGS =
bench-dpm:
	-$(MAKE) $(AM_MAKEFLAGS) $(bench_dpm_plexus)
	$(SHELL) $(top_srcdir)/bench/dpm/run.sh $(abs_top_builddir) '$(BENCH_RESULTS)/dpm' $(BENCH_DPM_FLAGS)
.PHONY: bench-dpm
# The report from a made-up data file, and dpm_bench under plexrun once Plexus can spawn.
TESTS += tests/build/bench_dpm.sh
EXTRA_DIST += tests/build/bench_dpm.sh
