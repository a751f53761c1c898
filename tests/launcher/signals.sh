#!/bin/sh
# SIGTERM to plexrun reaches every rank and plexrun exits 128+15 after cleaning up; a rank
# that ignores it is killed after the grace period; --timeout ends a job with 124.
. "$PLEXUS_TOP_SRCDIR/tests/launcher/common.sh"

# wait_for FILE N: until FILE has N "ready" lines (10 s at most).
wait_for() {
  i=0
  while [ "$i" -lt 100 ]; do
    n=$(grep -c ready "$1" 2>/dev/null)  # the file may not even exist yet
    [ "${n:-0}" -ge "$2" ] && return
    sleep 0.1
    i=$((i + 1))
  done
  fail "$name: $2 rank(s) never got ready"
}

name=sigterm out="$work/sigterm.out" err="$work/sigterm.err" dir="$work/pids-sigterm"
mkdir -p "$dir"
timeout -k 5 30 "$plexrun" -n 3 "$client" sleep "$dir" >"$out" 2>"$err" </dev/null &
job=$!
wait_for "$out" 3
kill -TERM "$job"
wait "$job"
status=$?
expect_status 143
expect_count "$out" 3 '^rank [0-2] ready'
expect_line "$err" "plexrun: caught SIGTERM; forwarding it to 3 rank(s), SIGKILL in 3 s"
expect_count "$err" 1 .
expect_clean "$(shm_prefix_in "$out")" "$dir"

# A rank deaf to SIGTERM gets SIGKILL once the grace period is over.
name=deaf out="$work/deaf.out" err="$work/deaf.err"
start=$(date +%s)
timeout -k 5 30 "$plexrun" -n 1 sh -c 'trap "" TERM; echo ready; while :; do sleep 0.2; done' \
  >"$out" 2>"$err" </dev/null &
job=$!
wait_for "$out" 1
kill -TERM "$job"
wait "$job"
status=$?
took=$(( $(date +%s) - start ))
expect_status 143
[ "$took" -ge 2 ] && [ "$took" -le 10 ] || fail "deaf: ended after $took s, expected about 3"
expect_clean

# A second signal does not wait for the grace period.
name=deaf-twice out="$work/deaf-twice.out" err="$work/deaf-twice.err"
start=$(date +%s)
timeout -k 5 30 "$plexrun" -n 1 sh -c 'trap "" TERM; echo ready; while :; do sleep 0.2; done' \
  >"$out" 2>"$err" </dev/null &
job=$!
wait_for "$out" 1
# Straight to plexrun: timeout(1) passes a signal on only once.
pkill -TERM -P "$job" -x plexrun
sleep 1  # a human's second ^C, not a signal delivered twice
kill -0 "$job" 2>/dev/null || fail "deaf-twice: plexrun ended before the rank"
pkill -TERM -P "$job" -x plexrun
wait "$job"
status=$?
took=$(( $(date +%s) - start ))
expect_status 143
[ "$took" -lt 3 ] || fail "deaf-twice: ended after $took s; the second signal should kill at once"
expect_clean

# SIGINT (^C). A shell starts background jobs with SIGINT ignored, which plexrun respects
# (like nohup and SIGHUP); env --default-signal gives it the default back.
if env --default-signal=INT true 2>/dev/null; then
  name=sigint out="$work/sigint.out" err="$work/sigint.err" dir="$work/pids-sigint"
  mkdir -p "$dir"
  timeout -k 5 30 env --default-signal=INT "$plexrun" -n 2 "$client" sleep "$dir" >"$out" 2>"$err" </dev/null &
  job=$!
  wait_for "$out" 2
  pkill -INT -P "$job" -x plexrun || fail "sigint: no plexrun under $job"
  wait "$job"
  status=$?
  expect_status 130
  expect_line "$err" "plexrun: caught SIGINT; forwarding it to 2 rank(s), SIGKILL in 3 s"
  expect_clean "$(shm_prefix_in "$out")" "$dir"
fi

dir="$work/pids-timeout"
mkdir -p "$dir"
run -t 30 timeout "$plexrun" -n 2 --timeout 1 "$client" sleep "$dir"
expect_status 124
expect_line "$err" "plexrun: the job timed out after 1 s (--timeout); killing the job"
expect_count "$out" 2 '^rank [01] ready'
expect_clean "$(shm_prefix_in "$out")" "$dir"

# Every rank leads a session of its own (and so its own process group and scheduler autogroup),
# outside plexrun's: field 6 of /proc/PID/stat is the session id.
run -t 30 own-session "$plexrun" -n 2 sh -c 'read -r stat </proc/$$/stat; set -- $stat; echo "pid $1 sid $6"'
expect_status 0
expect_count "$out" 2 '^pid ([0-9]+) sid \1$'
expect_clean

finish
