#!/bin/sh
# A per-communicator decline of coll_shm_inter is no error (issue 21): with --mca coll
# shm_inter,basic on communicators it cannot serve (every rank its own fake node, and
# MPI_COMM_SELF) the job prints nothing but the program's line, and coll_base_verbose 1 still
# gives the reason.
. "${PLEXUS_TOP_SRCDIR:?run through make check}/tests/lib/checks.sh"
: "${PLEXUS_TOP_BUILDDIR:?run through make check}"
plexrun="$PLEXUS_TOP_BUILDDIR/tools/plexrun/plexrun"
prog="$PLEXUS_TOP_BUILDDIR/tests/mpi/coll_intra"
[ -x "$plexrun" ] || { echo "SKIP: no plexrun (Plexus was built without PMIx)"; exit 77; }

run -t 90 quiet "$plexrun" -n 3 --timeout 80 --mca coll shm_inter,basic \
  --mca coll_shm_inter_ranks_per_node 1 "$prog" --sizes 0,1,1000
expect_status 0
expect_contains "$out" "coll_intra: PASS: 3 ranks"
expect_count "$err" 0 'plexus (error|warning)'
expect_not_contains "$err" "shm_inter"

run -t 90 verbose "$plexrun" -n 3 --timeout 80 --mca coll shm_inter,basic \
  --mca coll_shm_inter_ranks_per_node 1 --mca coll_base_verbose 1 "$prog" --sizes 0,1,1000
expect_status 0
expect_count 0 'plexus (error|warning)'
expect_contains "coll_shm_inter (requested by coll=shm_inter,basic) declined: no two processes"
finish
