#!/bin/sh
# bench/dpm: the report (bench/dpm/report.awk) from a made-up data file: ratios, the issue's
# targets, failed and hung runs, skipped implementations; and, once Plexus can spawn, dpm_bench
# itself under plexrun at a tiny size: every measurement prints its line, the cycles finish with
# the parent's file descriptors flat, bad arguments are named.
set -u
. "$PLEXUS_TOP_SRCDIR/tests/lib/checks.sh"
src=$PLEXUS_TOP_SRCDIR/bench/dpm
build=$PLEXUS_TOP_BUILDDIR

# ---- the report ----------------------------------------------------------------------------------
cat >"$work/data.tsv" <<'DATA'
plexus spawn 1 1 20.000 18.000 19.000 25.000 10
openmpi spawn 1 1 240.000 230.000 235.000 260.000 10
mpich spawn 1 1 100.000 90.000 95.000 120.000 10
plexus spawn 1 8 60.000 50.000 55.000 70.000 10
openmpi spawn 1 8 300.000 280.000 290.000 320.000 10
plexus merge 1 1 40.00 8.00 100
openmpi merge 1 1 15000.00 30.00 100
mpich failed merge 1 dpm_bench: parent (pid 7): HUNG: no progress for 60 s in MPI_Intercomm_merge, cycle 3
plexus latency intra 0.500 0.520 20000
plexus latency inter 0.540 0.560 20000
plexus latency merged 0.530 0.550 20000
openmpi latency intra 0.600 0.610 20000
openmpi latency inter 8.400 8.500 20000
plexus rate 1 1 50.00 250 5.00
openmpi rate 1 1 4.00 20 5.00
plexus cycles 100 1000 2.00 50.00 12 3
plexus cycles_done 1000 1000 20.00 50.00 11 12 3 3
openmpi cycles 100 1000 25.00 4.00 30 5
openmpi failed cycles 1 dpm_bench: parent (pid 9): HUNG: no progress for 60 s in MPI_Comm_spawn, cycle 137
DATA
run report awk -v cycles=1000 -v "load0=load 1.00 0.50 0.25" -v "load1=load 2.00 1.00 0.50" \
  -v impls=plexus,openmpi,mpich -f "$src/report.awk" "$work/data.tsv"
expect_status 0
expect_contains "Machine load (1, 5, 15 min): at the start load 1.00 0.50 0.25, at the end load 2.00 1.00 0.50"
# Plexus 20 ms against the better other, MPICH's 100: 0.20; Open MPI / Plexus 12.00.
expect_count 1 '^ +1 +1 +20\.0 \[18\.0-25\.0\] +240 \[230-260\] +100 \[90\.0-120\] +0\.20 +12\.00$'
expect_count 1 '^ +1 +8 +60\.0 \[50\.0-70\.0\] +300 \[280-320\] +- +0\.20 +5\.00$'
expect_count 1 '^ +1 +40\.0 / 8\.00 +15000 / 30\.0 +hung +0\.0027$'
expect_contains "spawn of one child at least 4x faster than Open MPI, aiming at 20 ms: Plexus 20.0 ms, Open MPI 240 ms -> met (12.0x)"
expect_contains "inter-group 8-byte latency within 10% of intra-group: Plexus 0.540 us against 0.500 us -> met"
expect_count 1 '^inter-group / intra-group +1\.08 +14\.00 +-$'
expect_contains "Plexus    1000 of 1000 in 20.0 s (50.0/s); parent's fds 11 -> 12, threads 3 -> 3"
expect_contains "Open MPI  hung in cycle 137 (last progress line: 100 done): dpm_bench: parent (pid 9): HUNG: no progress for 60 s in MPI_Comm_spawn, cycle 137"
expect_contains "MPICH     -"
expect_contains "MPICH, merge on 1 parent(s): dpm_bench: parent (pid 7): HUNG"

# Without any MPICH line MPICH was skipped; a slower inter-group latency misses the target.
sed -e 's/^plexus latency inter 0.540/plexus latency inter 0.600/' -e '/^mpich /d' "$work/data.tsv" >"$work/slow.tsv"
run report_slow awk -v cycles=1000 -v load0=x -v load1=y -v impls=plexus -f "$src/report.awk" "$work/slow.tsv"
expect_contains "Plexus 0.600 us against 0.500 us -> NOT met"
expect_contains "MPICH     skipped"
expect_count 1 '^ +1 +40\.0 / 8\.00 +15000 / 30\.0 +skipped +0\.0027$'


# ---- dpm_bench under plexrun ---------------------------------------------------------------------
plexrun=$build/tools/plexrun/plexrun
if [ ! -x "$plexrun" ]; then
  echo "plexrun is not built (it needs PMIx): dpm_bench not run"
  finish
fi
bench=$build/bench/dpm/dpm_bench
if [ ! -x "$bench" ]; then
  bench=$work/dpm_bench
fi
if [ "$bench" = "$work/dpm_bench" ] && ! "$build/tools/mpicc/mpicc-build-tree" -O2 -o "$bench" "$src"/*.c -I"$PLEXUS_TOP_SRCDIR/bench/lib" \
     "$PLEXUS_TOP_SRCDIR/bench/lib/cli_numbers.c" >"$work/cc.log" 2>&1; then
  if grep -q "undefined reference to .MPI_Comm_spawn" "$work/cc.log"; then
    echo "libmpi has no MPI_Comm_spawn yet: dpm_bench not run"
    finish
  fi
  fail "dpm_bench does not build"; cat "$work/cc.log"; finish
fi
run -t 60 bad_mode "$plexrun" -n 1 "$bench" sprawn
expect_status 2
expect_contains "dpm_bench: MODE: 'sprawn' is not one of spawn, rate, cycles, merge, latency, intra"
run -t 60 bad_children "$plexrun" -n 1 "$bench" spawn --children 1,0
expect_status 2
expect_contains "dpm_bench: --children: '0' is not a number from 1 to 64"

run -t 120 spawn "$plexrun" -n 2 --timeout 100 "$bench" spawn --children 1,3 --iters 2 --stall 50
expect_status 0
expect_count 1 '^spawn 2 1 [0-9.]+ [0-9.]+ [0-9.]+ [0-9.]+ 2$'
expect_count 1 '^spawn 2 3 [0-9.]+ [0-9.]+ [0-9.]+ [0-9.]+ 2$'
run -t 120 merge "$plexrun" -n 2 --timeout 100 "$bench" merge --children 2 --iters 5 --stall 50
expect_status 0
expect_count 1 '^merge 2 2 [0-9.]+ [0-9.]+ 5$'
run -t 120 latency "$plexrun" -n 1 --timeout 100 "$bench" latency --iters 200 --stall 50
expect_status 0
expect_count 1 '^latency inter [0-9.]+ [0-9.]+ 200$'
expect_count 1 '^latency merged [0-9.]+ [0-9.]+ 200$'
run -t 120 cycles "$plexrun" -n 1 --timeout 100 "$bench" cycles --count 30 --progress 10 --stall 50
expect_status 0
expect_count 3 '^cycles (10|20|30) 30 '
expect_count 1 '^cycles_done 30 30 '
# The parent's descriptors after 10 cycles and after 30: no descriptor kept per cycle.
fds=$(awk '$1 == "cycles" && ($2 == 10 || $2 == 30) { printf "%s ", $6 }' "$out")
check "the parent's file descriptors are flat from cycle 10 to 30 ($fds)" \
  awk -v f="$fds" 'BEGIN { split(f, a, " "); exit !(a[1] != "" && a[1] == a[2]) }'
finish
