# bench/dpm: the DPM benchmark suite (bench/dpm/README.md): spawn latency and rate,
# Intercomm_merge, accept/connect, inter- vs intra-group point-to-point, inter-communicator
# collectives, the spawn / exchange / disconnect soak and the scale model of the connect
# exchange, for Plexus's dpm_ud (ud, rc) and dpm_pmix, Open MPI and MPICH. run.sh builds
# dpm_bench with each implementation's compiler wrapper and runs every configuration in one
# invocation; a configuration whose component is missing is skipped with the reason. Options for
# the runner go in BENCH_DPM_FLAGS, e.g.
#   make bench-dpm BENCH_DPM_FLAGS="--quick --configs ud,pmix,openmpi"
bench_dpm_sources = bench/dpm/dpm_bench.c bench/dpm/dpm_options.h bench/dpm/dpm_options.c \
	bench/dpm/dpm_spawn.h bench/dpm/dpm_spawn.c bench/dpm/dpm_resources.h bench/dpm/dpm_resources.c \
	bench/dpm/dpm_merge.h bench/dpm/dpm_merge.c bench/dpm/dpm_connect.h bench/dpm/dpm_connect.c \
	bench/dpm/dpm_p2p.h bench/dpm/dpm_p2p.c bench/dpm/dpm_p2p_parts.h bench/dpm/dpm_p2p_parts.c \
	bench/dpm/dpm_latency.c bench/dpm/dpm_bandwidth.c bench/dpm/dpm_coll.h bench/dpm/dpm_coll.c \
	bench/dpm/stall.h bench/dpm/stall.c
EXTRA_DIST += bench/dpm/README.md bench/dpm/run.sh bench/dpm/report.awk bench/dpm/plot.sh \
	bench/dpm/model.py bench/dpm/model_inputs.sh bench/dpm/soak.sh
# Built by make check too (against libmpi), so that they keep compiling, and run by
# tests/build/bench_dpm.sh; run.sh builds its own copies with each implementation's wrapper.
if PLEXUS_BENCH
check_PROGRAMS += bench/dpm/dpm_bench bench/dpm/tcp_rr
endif
bench_dpm_dpm_bench_SOURCES = $(bench_dpm_sources) bench/lib/cli_numbers.h bench/lib/cli_numbers.c
bench_dpm_dpm_bench_CPPFLAGS = $(MPI_CPPFLAGS) -I$(top_srcdir)/bench/lib
bench_dpm_dpm_bench_LDADD = framework/mpi/libmpi.la
bench_dpm_dpm_bench_LDFLAGS = -no-install
bench_dpm_tcp_rr_SOURCES = bench/dpm/tcp_rr.c
bench_dpm_plexus = framework/mpi/libmpi.la tools/mpicc/mpicc-build-tree tools/plexus_info/plexus_info$(EXEEXT) \
	bench/dgram/dgram_rr$(EXEEXT) build-tree-plugins
if HAVE_PMIX
bench_dpm_plexus += tools/plexrun/plexrun$(EXEEXT)
endif
BENCH_DPM_FLAGS =
bench-dpm:
	-$(MAKE) $(AM_MAKEFLAGS) $(bench_dpm_plexus)
	$(SHELL) $(top_srcdir)/bench/dpm/run.sh $(abs_top_builddir) '$(BENCH_RESULTS)/dpm' $(BENCH_DPM_FLAGS)
.PHONY: bench-dpm
# The report and the model from made-up data, the model's self-test, and dpm_bench under plexrun
# at tiny sizes.
if PLEXUS_BENCH
TESTS += tests/build/bench_dpm.sh
endif
EXTRA_DIST += tests/build/bench_dpm.sh
