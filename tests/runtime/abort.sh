#!/bin/sh
# Runtime abort under plexrun: the last rank aborts through PMIx_Abort and the whole job ends
# with its status (docs/runtime-contract.md), several times over since a launcher race would
# show only now and then; a singleton's abort exits with the status too.
. "$PLEXUS_TOP_SRCDIR/tests/runtime/common.sh"
set -e

run singleton "$prog" --abort
expect_status 7
expect_count 1 'aborts the job \(status 7\): card_exchange was told to abort'

if [ ! -x "$plexrun" ]; then
  echo "SKIP: $plexrun is not built (it needs PMIx)"
  exit 77
fi
for n in 1 2 4 2 2; do
  # The outer timeout keeps a launcher that hangs from hanging the test suite.
  run -t 60 "abort$n" "$plexrun" -n "$n" --timeout 30 "$prog" --abort
  expect_status 7
  expect_count 1 'aborts the job \(status 7\): card_exchange was told to abort'
  expect_count 0 ': OK$'
done
finish
