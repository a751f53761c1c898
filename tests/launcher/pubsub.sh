#!/bin/sh
# PMIx_Publish / PMIx_Lookup between two ranks: a lookup with PMIX_WAIT issued before the
# publish is answered when it arrives; a duplicate publish, a wait that times out and a
# lookup after PMIx_Unpublish get their errors.
. "$PLEXUS_TOP_SRCDIR/tests/launcher/common.sh"

PLEXRUN_TRACE=1 run -t 30 pubsub "$plexrun" -n 2 "$client" pubsub
expect_status 0
nspace=$(sed -n 's/^plexrun\[trace\]: .* registered namespace \([^ ]*\) .*/\1/p' "$err")
expect_line "$out" "rank 1 found plexus-test-service=port-4242 from $nspace:0"
expect_line "$out" "rank 0 published; again: DUPLICATE KEY"
expect_line "$out" "rank 1 waiting for a key never published: TIMEOUT"
expect_line "$out" "rank 1 after unpublish: NOT-FOUND"
# The lookup was waiting in plexrun before the publish came.
waits=$(grep -n "lookup by $nspace:1 waits for plexus-test-service" "$err" | cut -d: -f1)
published=$(grep -n "publish plexus-test-service by $nspace:0" "$err" | cut -d: -f1)
if [ -z "$waits" ] || [ -z "$published" ] || [ "$waits" -ge "$published" ]; then
  fail "pubsub: the lookup did not wait for the publish (lines '$waits' and '$published')"; show
fi
expect_clean

finish
