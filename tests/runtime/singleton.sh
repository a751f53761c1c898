#!/bin/sh
# The card exchange without a launcher: a singleton of size 1 that still puts, fences and
# fetches its own cards, with its own secret; spawn says it needs a launcher.
. "$PLEXUS_TOP_SRCDIR/tests/runtime/common.sh"
set -e

run alone "$prog"
expect_status 0
expect_count 1 '^rank singleton-[0-9]+:0: verified 2 cards of 1 ranks, shm prefix plexus-[0-9a-f]{16}-$'
expect_count 1 '^rank singleton-[0-9]+:0: OK$'
expect_count 0 'FAIL'

# Two singletons are two jobs: different namespaces and secrets.
run again "$prog"
first=$(sed -n 's/.*shm prefix \(plexus-[0-9a-f]*-\)$/\1/p' "$work/alone.out")
second=$(sed -n 's/.*shm prefix \(plexus-[0-9a-f]*-\)$/\1/p' "$work/again.out")
[ -n "$first" ] && [ "$first" != "$second" ] || { fail "again: two singletons share the prefix '$first'"; show; }

run spawn "$prog" --spawn
expect_status 1
expect_count 1 'FAIL: spawn: cannot spawn .*without a launcher'
finish
