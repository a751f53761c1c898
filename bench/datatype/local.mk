# bench/datatype: pack/unpack throughput of Plexus, Open MPI and MPICH (bench/datatype/README.md).
# pack_bench is built by make check too (against libmpi), so it keeps compiling; run.sh builds
# its own copies with each implementation's compiler wrapper and runs them in the same
# invocation. Options for the runner go in BENCH_DATATYPE_FLAGS, e.g.
#   make bench-datatype BENCH_DATATYPE_FLAGS="--quick --impl plexus,openmpi"
EXTRA_DIST += bench/datatype/README.md bench/datatype/run.sh bench/datatype/pack_bench.c
if PLEXUS_BENCH
check_PROGRAMS += bench/datatype/pack_bench
endif
bench_datatype_pack_bench_SOURCES = bench/datatype/pack_bench.c bench/lib/cli_numbers.h bench/lib/cli_numbers.c
bench_datatype_pack_bench_CPPFLAGS = $(MPI_CPPFLAGS) -I$(top_srcdir)/bench/lib
bench_datatype_pack_bench_LDADD = framework/mpi/libmpi.la
bench_datatype_plexus = framework/mpi/libmpi.la tools/mpicc/mpicc-build-tree
if HAVE_PMIX
bench_datatype_plexus += tools/plexrun/plexrun$(EXEEXT)
endif
BENCH_DATATYPE_FLAGS =
bench-datatype:
	-$(MAKE) $(AM_MAKEFLAGS) $(bench_datatype_plexus)
	$(SHELL) $(top_srcdir)/bench/datatype/run.sh $(abs_top_builddir) '$(BENCH_RESULTS)/datatype' $(BENCH_DATATYPE_FLAGS)
.PHONY: bench-datatype
