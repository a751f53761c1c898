#!/bin/sh
# 1, 2, 4 and 8 ranks exchange business cards through a collecting fence; the job facts and
# plexus.job.secret are right; the fence reaches plexrun's fence_nb upcall.
. "$PLEXUS_TOP_SRCDIR/tests/launcher/common.sh"

for n in 1 2 4 8; do
  run -t 30 "cards-$n" "$plexrun" -n "$n" "$client" card "$n"
  expect_status 0
  expect_count "$out" "$n" "^rank [0-9]+ of $n: cards ok, secret [0-9a-f]{64}\$"
  r=0
  while [ "$r" -lt "$n" ]; do
    expect_count "$out" 1 "^rank $r of $n: "
    r=$((r + 1))
  done
  secrets=$(sed -n 's/.*secret \([0-9a-f]*\)$/\1/p' "$out" | sort -u | wc -l)
  [ "$secrets" -eq 1 ] || fail "cards-$n: $secrets different secrets among the ranks"
  [ -s "$err" ] && { fail "cards-$n: unexpected stderr"; show; }
  expect_clean
done

# Each namespace gets a fresh secret.
run -t 30 cards-again "$plexrun" -n 1 "$client" card 1
first=$(sed -n 's/.*secret //p' "$work/cards-1.out")
again=$(sed -n 's/.*secret //p' "$out")
[ -n "$first" ] && [ "$first" != "$again" ] || fail "two jobs got the same secret '$first'"

# The fence goes through plexrun (libpmix's local-only shortcut is off) with the cards in it,
# and every rank's PMIx_Init and PMIx_Finalize are seen.
PLEXRUN_TRACE=1 run -t 30 cards-traced "$plexrun" -n 4 "$client" card 4
expect_status 0
expect_count "$err" 1 "upcall fence_nb 1 proc entry \(first plexrun\.[0-9]+\.1:\*\), [1-9][0-9]+ bytes"
expect_count "$err" 4 "upcall client_connected plexrun\.[0-9]+\.1:[0-3]$"
expect_count "$err" 4 "upcall client_finalized plexrun\.[0-9]+\.1:[0-3]$"
expect_clean

finish
