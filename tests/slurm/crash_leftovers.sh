#!/bin/sh
# Nothing is left when a rank crashes, at any point, under plexrun and under srun (issue 15):
# after jobs whose rank segfaults right after MPI_Init, after traffic, is killed while a large
# message to it is in flight, aborts, or exits without finalize, and after plexrun itself is
# killed with SIGKILL (nobody left to clean up), no /dev/shm object of the job and no process of
# it remain. The srun half is skipped, with the reason, where Slurm cannot run.
. "${PLEXUS_TOP_SRCDIR:?run through make check}/tests/lib/checks.sh"
. "$PLEXUS_TOP_SRCDIR/tests/slurm/slurm_cluster.sh"
b=${PLEXUS_TOP_BUILDDIR:?run through make check}
# A copy of its own, so that its processes are told apart from other tests' (make check -j).
prog="$work/crash_at"
cp "$b/tests/slurm/crash_at" "$prog"
LSAN_OPTIONS=${LSAN_OPTIONS:-"suppressions=$PLEXUS_TOP_SRCDIR/tests/lib/lsan-libpmix.supp:print_suppressions=0"}
PLEXUS_MCA_runtime_base_verbose=1
export LSAN_OPTIONS PLEXUS_MCA_runtime_base_verbose

# The job's shm prefix, from the runtime's decision log of any of its ranks.
prefix_of_run() { sed -n 's/.*shm prefix \(plexus-[0-9a-f]\{16\}-\).*/\1/p' "$err" | head -1; }

# expect_clean_after: the last run failed, and left no shared memory and no process.
expect_clean_after() {
  [ "$status" -ne 0 ] || { fail "$name: exit status 0 after a rank failed"; show; }
  _p=$(prefix_of_run)
  if [ -z "$_p" ]; then fail "$name: no shm prefix in the runtime's log"; show; return; fi
  if ls /dev/shm/"$_p"* >/dev/null 2>&1; then fail "$name: left in /dev/shm: $(ls /dev/shm/"$_p"*)"; rm -f /dev/shm/"$_p"*; fi
  _i=0
  while pgrep -f "$prog" >/dev/null && [ $_i -lt 50 ]; do sleep 0.2; _i=$((_i + 1)); done
  if pgrep -f "$prog" >/dev/null; then fail "$name: processes left: $(pgrep -af "$prog")"; pkill -9 -f "$prog"; fi
}

points="init:1 traffic:0 transfer:1 abort:2 exit:1"
for pv in $points; do
  point=${pv%%:*} victim=${pv#*:}
  run -t 90 "plexrun_$point" "$b/tools/plexrun/plexrun" -n 3 --timeout 60 "$prog" "$point" "$victim"
  expect_clean_after
done

# plexrun itself killed: its ranks lose their server and go, and nobody removes anything.
"$b/tools/plexrun/plexrun" -n 3 "$prog" traffic 9 >"$work/killed.out" 2>"$work/killed.err" </dev/null &
launcher=$!
_i=0
until [ "$(grep -c 'shm prefix' "$work/killed.err")" -ge 3 ] || [ $_i -ge 100 ]; do sleep 0.2; _i=$((_i + 1)); done
sleep 1  # past MPI_Init and the ring exchange: every rank waits in a receive
kill -KILL "$launcher"
wait "$launcher" 2>/dev/null
name=plexrun_killed out="$work/killed.out" err="$work/killed.err" status=137
expect_clean_after

if slurm_start; then
  for pv in $points; do
    point=${pv%%:*} victim=${pv#*:}
    run -t 120 "srun_$point" srun --mpi=pmix -n 3 -O "$prog" "$point" "$victim"
    expect_clean_after
  done
else
  echo "srun half skipped: Slurm cannot run here: $slurm_why"
fi

finish
