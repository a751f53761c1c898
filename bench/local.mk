# Benchmarks: built by make check (so they keep compiling) and run by `make bench`, which writes
# CSV files and plots into bench/results/ of the source tree (gitignored).
check_PROGRAMS += bench/progress_pingpong
bench_progress_pingpong_SOURCES = bench/progress_pingpong.cc
bench_progress_pingpong_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/framework
bench_progress_pingpong_LDADD = framework/libplexus.la
bench_progress_pingpong_LDFLAGS = -no-install
EXTRA_DIST += bench/run_progress_pingpong.sh

# Job launch time against Open MPI's and MPICH's mpirun (bench/launch/run.sh).
check_PROGRAMS += bench/launch/hello_plexus
bench_launch_hello_plexus_SOURCES = bench/launch/hello_plexus.cc
bench_launch_hello_plexus_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/framework
bench_launch_hello_plexus_LDADD = framework/libplexus.la
bench_launch_hello_plexus_LDFLAGS = -no-install
EXTRA_DIST += bench/launch/run.sh bench/launch/hello_mpi.c

BENCH_RESULTS = $(abs_top_srcdir)/bench/results
if HAVE_PMIX
bench_launch_deps = bench/launch/hello_plexus$(EXEEXT) tools/plexrun/plexrun$(EXEEXT)
bench_launch_run = $(SHELL) $(top_srcdir)/bench/launch/run.sh $(abs_top_builddir)
else
bench_launch_run = @echo "bench/launch skipped: it needs plexrun, which needs PMIx"
endif
bench: bench/progress_pingpong$(EXEEXT) $(bench_launch_deps)
	$(SHELL) $(top_srcdir)/bench/run_progress_pingpong.sh $(abs_top_builddir)/bench/progress_pingpong$(EXEEXT) '$(BENCH_RESULTS)'
	$(bench_launch_run)
.PHONY: bench
