#!/bin/sh
# A rank that aborts, segfaults, exits 3 or exits 0 without PMIx_Finalize ends the job: the
# right status, one message naming it, the other ranks (waiting in a fence) killed, and
# nothing left behind (processes, /dev/shm/plexus-<prefix>-*, the job directory).
. "$PLEXUS_TOP_SRCDIR/tests/launcher/common.sh"

# how  status  what plexrun says about the victim (rank 1)  [ranks, 3 by default]
check_failure() {
  how=$1 want=$2 says=$3 n=${4:-3}
  dir="$work/pids-$how-$n"
  rm -rf "$dir"
  mkdir -p "$dir"
  run -t 15 "fail-$how-$n" "$plexrun" -n "$n" "$client" fail "$how" 1 "$dir"
  expect_status "$want"
  expect_count "$out" "$n" '^rank [0-9] ready, segment /plexus-[0-9a-f]{16}-test-r[0-9]$'
  pid=$(cat "$dir"/pid.*.1 2>/dev/null)
  expect_line "$err" "plexrun: rank 1 (job 1, pid $pid) $says; killing the job"
  expect_count "$err" 1 '^plexrun: '
  prefix=$(shm_prefix_in "$out")
  [ -n "$prefix" ] || fail "fail-$how: no segment name in the output"
  expect_clean "$prefix" "$dir"
}

check_failure abort 7 "called abort: test abort from the victim (status 7)"
check_failure segv 139 "was killed by signal 11 (Segmentation fault)"
check_failure exit3 3 "exited with status 3 without calling PMIx_Finalize"
check_failure exit0 1 "exited with status 0 without calling PMIx_Finalize"
# Killing ranks that wait in a fence made libpmix 4.2.2 crash in PMIx_server_finalize about
# one run in two (plexrun then leaves without finalizing): a few more runs to catch it.
for i in 1 2 3; do
  check_failure abort 7 "called abort: test abort from the victim (status 7)" 2
done

# Programs that never use PMIx: a non-zero exit fails the job (quietly: harness.sh), exit 0 is
# success.
run -t 30 plain-fail "$plexrun" -n 2 sh -c 'if [ "$PMIX_RANK" = 1 ]; then exit 5; fi; sleep 30'
expect_status 5
[ -s "$err" ] && { fail "plain-fail: stderr is not empty"; show; }
expect_clean
run -t 30 plain-ok "$plexrun" -n 3 true
expect_status 0
[ -s "$err" ] && { fail "plain-ok: unexpected stderr"; show; }
expect_clean

# What a rank leaves running in the background does not outlive it.
run -t 30 leftover "$plexrun" -n 2 sh -c 'sleep 300 & echo "$!" >"$0/bg.$PMIX_RANK"' "$work"
expect_status 0
for f in "$work"/bg.0 "$work"/bg.1; do
  pid=$(cat "$f" 2>/dev/null)
  if [ -z "$pid" ]; then fail "leftover: no pid in $f"
  elif kill -0 "$pid" 2>/dev/null && grep -q sleep "/proc/$pid/cmdline"; then
    fail "leftover: the rank's background sleep $pid is still alive"; kill "$pid"
  fi
done
expect_clean

finish
