# Examples: shipped in the tarball, never built by the tree (they build against the installed SDK).
EXTRA_DIST += examples/component-template/Makefile examples/component-template/template_component.cc \
	examples/component-template/README.md

# MPI examples, built in the tree with libmpi (the demo runs them with plexrun) and shipped.
noinst_PROGRAMS = examples/mpi/hello examples/mpi/ring examples/mpi/pi
examples_mpi_hello_SOURCES = examples/mpi/hello.c
examples_mpi_hello_CPPFLAGS = $(MPI_CPPFLAGS)
examples_mpi_hello_LDADD = framework/mpi/libmpi.la
examples_mpi_ring_SOURCES = examples/mpi/ring.c
examples_mpi_ring_CPPFLAGS = $(MPI_CPPFLAGS)
examples_mpi_ring_LDADD = framework/mpi/libmpi.la
examples_mpi_pi_SOURCES = examples/mpi/pi.c
examples_mpi_pi_CPPFLAGS = $(MPI_CPPFLAGS)
examples_mpi_pi_LDADD = framework/mpi/libmpi.la

# The main demo: a ray tracer that spawns its workers.
include examples/render/local.mk
