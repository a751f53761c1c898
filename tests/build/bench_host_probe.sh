#!/bin/bash
# The benchmark runners' host probe (bench/lib/host_probe.c, bench/lib/common.sh): the probe
# measures a cache line between two CPUs and declines with one, and the runners wait while the
# host is disturbed, redo a run it disturbed (its output set aside), stop redoing when the reruns
# run out, and are not fooled by one freak fast probe. The runner logic is driven by a fake probe
# that prints a script of values.
set -u
. "$PLEXUS_TOP_SRCDIR/tests/lib/checks.sh"
probe=$PLEXUS_TOP_BUILDDIR/bench/lib/host_probe

# ---- the probe -----------------------------------------------------------------------------------
if [ "$(nproc)" -ge 2 ]; then
  run -t 60 probe "$probe" 2000
  expect_status 0
  check "the probe prints one time in ns between 1 and 100000 ($(cat "$out"))" \
    awk '{ ok = NR == 1 && $1 + 0 >= 1 && $1 + 0 <= 100000 } END { exit !(ok && NR == 1) }' "$out"
fi
run -t 60 one_cpu taskset -c 0 "$probe" 2000
expect_status 1
expect_contains "unavailable: fewer than two CPUs"
run -t 10 bad_count "$probe" 5
expect_status 2
expect_contains "ROUND_TRIPS_PER_BATCH must be 100..10000000, got '5'"

# ---- the runner's decisions ----------------------------------------------------------------------
build=$PLEXUS_TOP_BUILDDIR srcdir=$PLEXUS_TOP_SRCDIR
quiet_wait=0 quiet_total=0 host_poll=0 host_wait=30 host_total=30 host_reruns=1
# shellcheck source=../../bench/lib/common.sh
. "$srcdir/bench/lib/common.sh"
printf '#!/bin/sh\nv=$(head -n 1 "%s/queue"); sed -i 1d "%s/queue"; echo "$v"\n' "$work" "$work" >"$work/host_probe"
chmod +x "$work/host_probe"
queue() { printf '%s\n' "$@" >"$work/queue"; }
host_log=$work/host_probe.tsv
printf 'time\twhat\tone_way_ns\n' >"$host_log"

queue 56 57 24 55 58
for i in 1 2 3 4 5; do probe_host calibrate; done
check "one freak fast probe does not set the usual time (usual: $host_usual)" test "$host_usual" = 55
queue 66
probe_host before-run-0
check "a probe somewhat slower than usual is not a disturbed host" test "$(host_disturbed; echo $?)" = 1

queue 270 450 57
wait_quiet run-a >"$work/wait.out"
check "wait_quiet probes until the host is quiet again (last probe: $probe_ns)" test "$probe_ns" = 57
check "wait_quiet says it waits" grep -q "host disturbed before run-a (cache line 270 ns, usual 5[56])" "$work/wait.out"

queue 265
run_disturbed run-a >"$work/after.out"
check "a run that ends on a disturbed host is redone" test $? -eq 0
check "it says so" grep -q "host disturbed during run-a (cache line 265 ns, usual 5[56]): run again" "$work/after.out"

queue 58
probe_host before-run-b
queue 60
run_disturbed run-b >/dev/null
check "a run with quiet probes before and after is kept" test $? -ne 0

queue 280
probe_host before-run-c
queue 59
run_disturbed run-c >"$work/after_c.out"
check "a run that started on a disturbed host is disturbed too, but kept once the reruns are spent" \
  test $? -ne 0
check "it is kept with a word that no reruns are left" grep -q "no reruns left: kept" "$work/after_c.out"

mkdir -p "$work/raw"
echo first >"$work/raw/run-a.1.txt"; echo err >"$work/raw/run-a.1.txt.err"
set_aside "$work/raw" run-a "$work/raw/run-a.1.txt" "$work/raw/run-a.1.txt.err"
echo second >"$work/raw/run-a.1.txt"
set_aside "$work/raw" run-a "$work/raw/run-a.1.txt" "$work/raw/missing.txt"
check "a disturbed run's output is set aside, a second time beside the first" \
  grep -qx first "$work/raw/disturbed/run-a.1/run-a.1.txt"
check "  with its stderr" test -f "$work/raw/disturbed/run-a.1/run-a.1.txt.err"
check "  and the second in its own folder" grep -qx second "$work/raw/disturbed/run-a.2/run-a.1.txt"
check "  leaving nothing of it where the runs are read" test ! -e "$work/raw/run-a.1.txt"

quiet_summary >"$work/summary.out"
check "the summary counts the run kept on a disturbed host" \
  grep -q "WARNING: 1 runs were kept although the host was disturbed" "$work/summary.out"
check "the summary counts the redone runs" grep -q "1 runs redone" "$work/summary.out"
finish
