#!/bin/sh
# tests/mpi/dpm_across.sh over btl self,tcp alone, with dpm_ud and with dpm_pmix: every process
# of one job connects to every process of the other over loopback TCP, proving the secret the two
# groups' meeting agreed (two jobs never share their job secrets).
. "${PLEXUS_TOP_SRCDIR:?run through make check}/tests/mpi/dpm_across_pair.sh"
for dpm in ud pmix; do
    across_pair "-$dpm" "plexus-test-tcp-across-$$-$dpm" --mca btl self,tcp --mca dpm $dpm
done
across_no_leftovers
finish
