#!/bin/sh
# Generates configure and the Makefile.in files from a git checkout.
set -e
cd "$(dirname "$0")"
# The components' build rules, from configure.ac's PLEXUS_COMPONENT lines (automake includes them).
sh config/component_glue.sh
# mpi.h's PMPI_ prototypes, from its MPI_ ones (tests/build/pmpi.sh checks they are current).
sh config/pmpi_prototypes.sh
autoreconf --install --force --warnings=all,no-portability "$@"
# The shell tests use automake's own driver; automake installs it only for the default driver.
cp -f "$(automake --print-libdir)/test-driver" config/test-driver
