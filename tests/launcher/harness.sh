#!/bin/sh
# What test harnesses need from plexrun: MPIEXEC_TIMEOUT ends a job as --timeout does (status
# 124, one line on stderr, nothing left behind), and a rank that merely exits non-zero gives the
# job its status with nothing added to the job's output (stderr says why only under --verbose).
. "$PLEXUS_TOP_SRCDIR/tests/launcher/common.sh"
unset MPIEXEC_TIMEOUT

dir="$work/pids-env-timeout"
mkdir -p "$dir"
run -t 30 env-timeout env MPIEXEC_TIMEOUT=1 "$plexrun" -n 2 "$client" sleep "$dir"
expect_status 124
expect_line "$err" "plexrun: the job timed out after 1 s (MPIEXEC_TIMEOUT); killing the job"
expect_count "$err" 1 '.'
expect_count "$out" 2 '^rank [01] ready'
expect_clean "$(shm_prefix_in "$out")" "$dir"

# Fractions work; the command line wins over the environment; 0 and empty mean no limit.
run -t 30 env-timeout-fraction env MPIEXEC_TIMEOUT=0.5 "$plexrun" -n 1 sh -c 'sleep 20'
expect_status 124
expect_line "$err" "plexrun: the job timed out after 0.5 s (MPIEXEC_TIMEOUT); killing the job"
run -t 30 cli-wins env MPIEXEC_TIMEOUT=0.3 "$plexrun" --timeout 20 -n 2 sh -c 'sleep 1; echo ok'
expect_status 0
expect_count "$out" 2 '^ok$'
for none in 0 ''; do
  run -t 30 "env-timeout-none-$none" env MPIEXEC_TIMEOUT="$none" "$plexrun" -n 1 sh -c 'sleep 1; echo ok'
  expect_status 0
  expect_line "$out" ok
done
for bad in -1 5s abc; do
  run -t 10 "env-timeout-bad" env MPIEXEC_TIMEOUT="$bad" "$plexrun" -n 1 true
  expect_status 2
  expect_line "$err" "plexrun: MPIEXEC_TIMEOUT expects a number of seconds (e.g. 30 or 0.5; 0 for none), got '$bad'"
  [ -s "$out" ] && { fail "MPIEXEC_TIMEOUT=$bad: wrote to stdout"; show; }
done

# A rank exits 3 after finalizing, last: status 3, the ranks' lines and nothing else anywhere.
dir="$work/pids-exit"
mkdir -p "$dir"
run -t 30 exit-last "$plexrun" -n 3 "$client" exit 3 1 "$dir"
expect_status 3
expect_count "$out" 3 '^rank [012] done$'
expect_count "$out" 3 '.'
[ -s "$err" ] && { fail "exit-last: stderr is not empty"; show; }
expect_clean "" "$dir"

# The same while the others still run: they are killed, quietly.
dir="$work/pids-exit-wait"
mkdir -p "$dir"
run -t 30 exit-first "$plexrun" -n 3 "$client" exit 42 2 "$dir" wait
expect_status 42
expect_count "$out" 3 '^rank [012] done$'
expect_count "$out" 3 '.'
[ -s "$err" ] && { fail "exit-first: stderr is not empty"; show; }
expect_clean "" "$dir"

# --verbose explains it, on stderr only.
run -t 30 exit-verbose "$plexrun" --verbose -n 2 "$client" exit 3 1 "$dir"
expect_status 3
expect_count "$out" 2 '.'
expect_count "$err" 1 '.'
expect_contains "$err" "plexrun: rank 1 (job 1, pid "
expect_contains "$err" ") exited with status 3; killing the job"

# A program that is not MPI at all: the same.
run -t 30 plain-exit "$plexrun" -n 2 sh -c 'echo "rank $PMIX_RANK"; [ "$PMIX_RANK" = 1 ] && exit 9; exit 0'
expect_status 9
# Rank 0 may be killed before it prints (rank 1 exits at once): only rank 1's line is certain.
expect_count "$out" 1 '^rank 1$'
[ -s "$err" ] && { fail "plain-exit: stderr is not empty"; show; }
expect_clean

# Abnormal ends are always explained (failures.sh checks each wording): an exit without
# finalize, here with status 3, says so.
dir="$work/pids-unfinalized"
mkdir -p "$dir"
run -t 30 unfinalized "$plexrun" -n 2 "$client" fail exit3 1 "$dir"
expect_status 3
expect_count "$err" 1 'exited with status 3 without calling PMIx_Finalize; killing the job$'

finish
