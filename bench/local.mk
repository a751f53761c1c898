# Benchmarks: built by make check (so they keep compiling; not in a tree configured with
# --disable-bench, as CI's sanitizer tree, where they never run) and run by `make bench`, which
# writes CSV files and plots into bench/results/ of the source tree (gitignored).
if PLEXUS_BENCH
check_PROGRAMS += bench/progress_pingpong
endif
bench_progress_pingpong_SOURCES = bench/progress_pingpong.cc
bench_progress_pingpong_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/framework
bench_progress_pingpong_LDADD = framework/libplexus.la
bench_progress_pingpong_LDFLAGS = -no-install
EXTRA_DIST += bench/run_progress_pingpong.sh

# A raw BTL latency/bandwidth driver (no MPI layer): plexrun -n 2 bench/btl_pingpong [btl].
# Built by make check, never run by it.
if PLEXUS_BENCH
check_PROGRAMS += bench/btl_pingpong
endif
bench_btl_pingpong_SOURCES = bench/btl_pingpong.cc
bench_btl_pingpong_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/framework
bench_btl_pingpong_LDADD = framework/libplexus.la
bench_btl_pingpong_LDFLAGS = -no-install

# osc_sm's one-sided latencies beside osc_rdma, Open MPI and MPICH (bench/osc_sm/run.sh BUILD_DIR).
EXTRA_DIST += bench/osc_sm/run.sh bench/osc_sm/osc_sm_bench.c

# Job launch time against Open MPI's and MPICH's mpirun (bench/launch/run.sh): one MPI hello
# built with each implementation's compiler wrapper.
EXTRA_DIST += bench/launch/run.sh bench/launch/hello_mpi.c bench/launch/srun.sh bench/pt2pt/across_hosts.sh

BENCH_RESULTS = $(abs_top_srcdir)/bench/results
if HAVE_PMIX
bench_launch_deps = framework/mpi/libmpi.la tools/mpicc/mpicc-build-tree tools/plexrun/plexrun$(EXEEXT)
bench_launch_run = $(SHELL) $(top_srcdir)/bench/launch/run.sh $(abs_top_builddir)
else
bench_launch_run = @echo "bench/launch skipped: it needs plexrun, which needs PMIx"
endif
bench: bench/progress_pingpong$(EXEEXT) $(bench_launch_deps)
	$(SHELL) $(top_srcdir)/bench/run_progress_pingpong.sh $(abs_top_builddir)/bench/progress_pingpong$(EXEEXT) '$(BENCH_RESULTS)'
	$(bench_launch_run)
	$(MAKE) $(AM_MAKEFLAGS) bench-pt2pt
	$(MAKE) $(AM_MAKEFLAGS) bench-datatype
	$(MAKE) $(AM_MAKEFLAGS) bench-coll
	$(MAKE) $(AM_MAKEFLAGS) bench-topology
	$(MAKE) $(AM_MAKEFLAGS) bench-osc
	$(MAKE) $(AM_MAKEFLAGS) bench-dpm
.PHONY: bench

# Point-to-point latency, bandwidth and message rate of Plexus against Open MPI and MPICH
# (bench/pt2pt/run.sh). The Plexus side is built first, but a failure there only makes the runner
# skip Plexus: Open MPI and MPICH are still measured. Options for the runner go in
# BENCH_PT2PT_FLAGS, e.g. make bench-pt2pt BENCH_PT2PT_FLAGS="--quick --impl openmpi,mpich".
EXTRA_DIST += bench/pt2pt/README.md bench/pt2pt/run.sh bench/pt2pt/aggregate.awk bench/pt2pt/report.awk \
	bench/pt2pt/plot.sh bench/pt2pt/busy_load.sh \
	bench/pt2pt/latency.c bench/pt2pt/bandwidth.c bench/pt2pt/msgrate.c \
	bench/pt2pt/options.h bench/pt2pt/options.c bench/pt2pt/p2p_sync.h bench/pt2pt/p2p_sync.c \
	bench/pt2pt/buffers.h bench/pt2pt/buffers.c bench/pt2pt/affinity.h bench/pt2pt/affinity.c \
	bench/lib/cli_numbers.h bench/lib/cli_numbers.c
# Built by make check too (against libmpi), so that they keep compiling; run.sh builds its own
# copies with each implementation's compiler wrapper.
bench_pt2pt_common = bench/pt2pt/options.h bench/pt2pt/options.c bench/pt2pt/p2p_sync.h \
	bench/pt2pt/p2p_sync.c bench/pt2pt/buffers.h bench/pt2pt/buffers.c bench/pt2pt/affinity.h \
	bench/pt2pt/affinity.c bench/lib/cli_numbers.h bench/lib/cli_numbers.c
if PLEXUS_BENCH
check_PROGRAMS += bench/pt2pt/latency bench/pt2pt/bandwidth bench/pt2pt/msgrate
endif
bench_pt2pt_latency_SOURCES = bench/pt2pt/latency.c $(bench_pt2pt_common)
bench_pt2pt_bandwidth_SOURCES = bench/pt2pt/bandwidth.c $(bench_pt2pt_common)
bench_pt2pt_msgrate_SOURCES = bench/pt2pt/msgrate.c $(bench_pt2pt_common)
bench_pt2pt_latency_CPPFLAGS = $(MPI_CPPFLAGS) -I$(top_srcdir)/bench/lib
bench_pt2pt_bandwidth_CPPFLAGS = $(MPI_CPPFLAGS) -I$(top_srcdir)/bench/lib
bench_pt2pt_msgrate_CPPFLAGS = $(MPI_CPPFLAGS) -I$(top_srcdir)/bench/lib
bench_pt2pt_latency_LDADD = framework/mpi/libmpi.la
bench_pt2pt_bandwidth_LDADD = framework/mpi/libmpi.la
bench_pt2pt_msgrate_LDADD = framework/mpi/libmpi.la
bench_pt2pt_plexus = framework/mpi/libmpi.la tools/mpicc/mpicc-build-tree
if HAVE_PMIX
bench_pt2pt_plexus += tools/plexrun/plexrun$(EXEEXT)
endif
BENCH_PT2PT_FLAGS =
bench-pt2pt:
	-$(MAKE) $(AM_MAKEFLAGS) $(bench_pt2pt_plexus)
	$(SHELL) $(top_srcdir)/bench/pt2pt/run.sh $(abs_top_builddir) '$(BENCH_RESULTS)/pt2pt' $(BENCH_PT2PT_FLAGS)
.PHONY: bench-pt2pt
include bench/datatype/local.mk
include bench/coll/local.mk
include bench/coll_inter/local.mk
include bench/topology/local.mk
include bench/dpm/local.mk
include bench/dgram/local.mk
include bench/osc/local.mk

# The runners' host probe (bench/lib/common.sh builds its own copy); built by make check so that
# it keeps compiling, and tested with the runners' decisions.
if PLEXUS_BENCH
check_PROGRAMS += bench/lib/host_probe
endif
bench_lib_host_probe_SOURCES = bench/lib/host_probe.c
bench_lib_host_probe_CFLAGS = $(AM_CFLAGS) -pthread
bench_lib_host_probe_LDFLAGS = -pthread
if PLEXUS_BENCH
TESTS += tests/build/bench_host_probe.sh
endif
EXTRA_DIST += tests/build/bench_host_probe.sh
