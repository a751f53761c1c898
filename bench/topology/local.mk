# bench/topology: a 2-D halo exchange on MPI_Cart_create grids with and without reorder, Plexus
# against Open MPI and MPICH (bench/topology/README.md). halo_bench is built by make check too
# (against libmpi), so it keeps compiling; run.sh builds its own copies with each
# implementation's compiler wrapper. Options for the runner go in BENCH_TOPOLOGY_FLAGS, e.g.
#   make bench-topology BENCH_TOPOLOGY_FLAGS="--quick --impl plexus,openmpi"
EXTRA_DIST += bench/topology/README.md bench/topology/run.sh bench/topology/halo_bench.c
if PLEXUS_BENCH
check_PROGRAMS += bench/topology/halo_bench
endif
bench_topology_halo_bench_SOURCES = bench/topology/halo_bench.c bench/lib/cli_numbers.h bench/lib/cli_numbers.c
bench_topology_halo_bench_CPPFLAGS = $(MPI_CPPFLAGS) -I$(top_srcdir)/bench/lib
bench_topology_halo_bench_LDADD = framework/mpi/libmpi.la
bench_topology_plexus = framework/mpi/libmpi.la tools/mpicc/mpicc-build-tree
if HAVE_PMIX
bench_topology_plexus += tools/plexrun/plexrun$(EXEEXT)
endif
BENCH_TOPOLOGY_FLAGS =
bench-topology:
	-$(MAKE) $(AM_MAKEFLAGS) $(bench_topology_plexus)
	$(SHELL) $(top_srcdir)/bench/topology/run.sh $(abs_top_builddir) '$(BENCH_RESULTS)/topology' $(BENCH_TOPOLOGY_FLAGS)
.PHONY: bench-topology
