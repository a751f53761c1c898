# bench/osc: one-sided latency, bandwidth and the ghost-cell update of Plexus (each osc_rdma
# protocol and auto), Open MPI and MPICH (bench/osc/README.md). osc_bench is built by make check
# too (against libmpi), so it keeps compiling; run.sh builds its own copies with each
# implementation's compiler wrapper and runs them in the same invocation. Options for the runner
# go in BENCH_OSC_FLAGS, e.g.
#   make bench-osc BENCH_OSC_FLAGS="--quick --protocols auto,buffered"
EXTRA_DIST += bench/osc/README.md bench/osc/run.sh bench/osc/aggregate.awk bench/osc/report.awk \
	bench/osc/plot.sh
if PLEXUS_BENCH
check_PROGRAMS += bench/osc/osc_bench
endif
bench_osc_osc_bench_SOURCES = bench/osc/osc_bench.c bench/lib/cli_numbers.h bench/lib/cli_numbers.c
bench_osc_osc_bench_CPPFLAGS = $(MPI_CPPFLAGS) -I$(top_srcdir)/bench/lib
bench_osc_osc_bench_LDADD = framework/mpi/libmpi.la
bench_osc_plexus = framework/mpi/libmpi.la tools/mpicc/mpicc-build-tree $(plexus_plugin_LTLIBRARIES)
if HAVE_PMIX
bench_osc_plexus += tools/plexrun/plexrun$(EXEEXT)
endif
BENCH_OSC_FLAGS =
bench-osc:
	-$(MAKE) $(AM_MAKEFLAGS) $(bench_osc_plexus)
	$(SHELL) $(top_srcdir)/bench/osc/run.sh $(abs_top_builddir) '$(BENCH_RESULTS)/osc' $(BENCH_OSC_FLAGS)
.PHONY: bench-osc
