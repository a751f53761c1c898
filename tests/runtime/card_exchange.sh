#!/bin/sh
# The card exchange under plexrun: 1, 2, 4 and 8 ranks (more ranks than the 2 cores), every
# rank verifying every peer's cards byte for byte and the shared secret; then a spawn whose
# children exchange cards among themselves and with their parent across namespaces.
. "$PLEXUS_TOP_SRCDIR/tests/runtime/common.sh"
if [ ! -x "$plexrun" ]; then
  echo "SKIP: $plexrun is not built (it needs PMIx)"
  exit 77
fi
set -e

for n in 1 2 4 8; do
  run "n$n" "$plexrun" -n "$n" --timeout 120 "$prog"
  expect_status 0
  expect_count "$n" "^rank [^ ]+:[0-9]+: verified $((2 * n)) cards of $n ranks, shm prefix plexus-[0-9a-f]{16}-\$"
  expect_count "$n" '^rank [^ ]+:[0-9]+: OK$'
  # One job, one secret: every rank names the same prefix.
  prefixes=$(sed -n 's/.*shm prefix \(plexus-[0-9a-f]*-\)$/\1/p' "$out" | sort -u | wc -l)
  [ "$prefixes" -eq 1 ] || { fail "n$n: $n ranks report $prefixes different shm prefixes"; show; }
  expect_count 0 'FAIL'
done

# The collecting init fence ships every card to every rank; fetching then never asks the server.
run collect "$plexrun" -n 4 --timeout 120 --mca runtime_modex_collect 1 --mca runtime_base_verbose 1 "$prog"
expect_status 0
expect_count 4 '^rank [^ ]+:[0-9]+: OK$'
expect_count 4 'init fence \(collecting every card\) took'

# Unset, a job on one node fetches cards on first contact (across nodes it collects them:
# tests/multinode/srun_across.sh).
run on_one_node "$plexrun" -n 2 --timeout 120 --mca runtime_base_verbose 1 "$prog"
expect_status 0
expect_count 2 'init fence \(cards fetched on first contact\) took'

run spawn "$plexrun" -n 2 --timeout 120 "$prog" --spawn
expect_status 0
expect_count 1 '^rank [^ ]+:0: spawned 2 children as '
expect_count 2 '^child [^ ]+:[01]: verified 4 cards of 2 ranks'
expect_count 2 '^child [^ ]+:[01]: OK$'
expect_count 2 '^rank [^ ]+:[01]: OK$'
expect_count 0 'FAIL'
finish
