#!/bin/sh
# tests/mpi/dpm_across.sh with dpm_ud (components/dpm_ud/README.md): the port name (with the
# port's key) found through the other plexrun's name service, every later message between the
# roots a datagram (ud) or over their TCP connection (rc), the business cards carried by dpm_ud,
# not fetched from the other plexrun; btl self,sm only, so btl_sm reaches the other plexrun's
# processes with those cards.
. "${PLEXUS_TOP_SRCDIR:?run through make check}/tests/mpi/dpm_across_pair.sh"
for mode in ud rc; do
    across_pair "-$mode" "plexus-test-ud-across-$$-$mode" \
        --mca btl self,sm --mca dpm ud --mca dpm_ud_mode $mode
done
across_no_leftovers
finish
