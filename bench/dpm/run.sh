#!/bin/bash
# The DPM benchmark (issue 19, the start of issue 20's suite): spawn latency for 1, 2, 4, 8
# children from 1, 2, 4 parents, spawn rate, a loop of 1,000 spawn / exchange / disconnect cycles
# that must finish, Intercomm_merge latency after a spawn, and 8-byte latency between a parent
# and its child against two ranks of one job; Plexus, Open MPI and MPICH in one invocation.
# Writes a table with ratios (table.txt), one CSV per measurement, spawn.png and cycles.png, and
# every run's raw output. See bench/dpm/README.md.
#
# usage: run.sh BUILD_DIR RESULTS_DIR [--quick] [--impl plexus,openmpi,mpich] [--timeout SECONDS]
#               [--cycles N] [--only spawn,rate,merge,latency,cycles]
set -u

here=$(cd "$(dirname "$0")" && pwd)
srcdir=$(cd "$here/../.." && pwd)
usage="usage: run.sh BUILD_DIR RESULTS_DIR [--quick] [--impl plexus,openmpi,mpich] [--timeout SECONDS] [--cycles N] [--only spawn,rate,merge,latency,cycles]"
[ $# -ge 2 ] || { echo "$usage" >&2; exit 2; }
build=$(cd "$1" 2>/dev/null && pwd) || { echo "run.sh: build directory '$1' does not exist" >&2; exit 2; }
results=$2
shift 2
all_parts=latency,merge,spawn,rate,cycles
quick=0 impls=plexus,openmpi,mpich run_timeout='' cycles='' parts=$all_parts
while [ $# -gt 0 ]; do
  case $1 in
    --quick) quick=1 ;;
    --impl) impls=${2:?--impl wants a list such as plexus,openmpi,mpich}; shift ;;
    --timeout) run_timeout=${2:?--timeout wants seconds}; shift ;;
    --cycles) cycles=${2:?--cycles wants a number}; shift ;;
    --only) parts=${2:?--only wants a list such as spawn,merge}; shift ;;
    *) echo "run.sh: unknown option '$1'" >&2; echo "$usage" >&2; exit 2 ;;
  esac
  shift
done
# shellcheck source=../lib/common.sh
. "$here/../lib/common.sh"
check_impls "$impls"
for p in ${parts//,/ }; do
  case ,$all_parts, in *,"$p",*) ;; *) echo "run.sh: --only: '$p' is not one of $all_parts" >&2; exit 2 ;; esac
done
case ${run_timeout:-1} in ''|*[!0-9]*|0) echo "run.sh: --timeout wants positive seconds, got '$run_timeout'" >&2; exit 2 ;; esac
case ${cycles:-1} in ''|*[!0-9]*|0) echo "run.sh: --cycles wants a positive number, got '$cycles'" >&2; exit 2 ;; esac

# ---- what is run ---------------------------------------------------------------------------------
# Every run is bounded twice: dpm_bench's own stall timer (--stall: a wait that makes no progress
# for that long ends the process with a HUNG line naming the wait and the cycle) and the run's
# timeout here (then the launcher is killed and its strays reaped).
if [ "$quick" = 1 ]; then
  spawn_iters=3 merge_iters=20 pp_iters=5000 rate_s=2 cycles=${cycles:-100} cycle_budget=90
  quiet_wait=2 quiet_total=20
else
  spawn_iters=10 merge_iters=100 pp_iters=20000 rate_s=5 cycles=${cycles:-1000} cycle_budget=420
  quiet_wait=5 quiet_total=90
fi
run_timeout=${run_timeout:-180} stall=60
parents="1 2 4"
children=1,2,4,8

mkdir -p "$results/raw" || { echo "run.sh: cannot create $results" >&2; exit 1; }
results=$(cd "$results" && pwd)
rm -rf "${results:?}"/raw/*
work=$(mktemp -d "${TMPDIR:-/tmp}/dpm-bench.XXXXXX")
trap 'reap_strays; rm -rf "$work"' EXIT
trap 'exit 130' INT TERM

# Unbound everywhere: spawned children are not bound by any of the three launchers, so the
# two-process latency of one job is measured unbound too. Open MPI keeps its default BTLs: between
# a parent and its children it needs tcp (vader does not cross jobs), so common.sh's
# "btl self,vader" would make every spawn's traffic fail.
launch() {  # launch IMPL N: the launcher command in $launcher
  case $1 in
    plexus) launcher=("$plexrun" -n "$2" --bind-to none) ;;
    openmpi) launcher=(mpirun.openmpi --allow-run-as-root --oversubscribe -n "$2" --bind-to none) ;;
    mpich) launcher=(mpirun.mpich -n "$2" -bind-to none) ;;
  esac
}
launch_flags() {
  case $1 in
    plexus) echo "plexrun -n N --bind-to none" ;;
    openmpi) echo "mpirun.openmpi --allow-run-as-root --oversubscribe -n N --bind-to none (default BTLs: tcp between jobs)" ;;
    mpich) echo "mpirun.mpich -n N -bind-to none" ;;
  esac
}

sources=(dpm_bench.c dpm_options.c dpm_spawn.c dpm_merge.c dpm_latency.c stall.c)
build_program() {
  local impl=$1 log="$results/raw/build-$1.log" s srcs=()
  mkdir -p "$work/$impl"
  for s in "${sources[@]}"; do srcs+=("$here/$s"); done
  # shellcheck disable=SC2086
  if ! ${cc_pre[$impl]} -O2 -o "$work/$impl/dpm_bench" "${srcs[@]}" -I"$srcdir/bench/lib" \
       "$srcdir/bench/lib/cli_numbers.c" ${cc_post[$impl]} >"$log" 2>&1; then
    skipped[$impl]="building dpm_bench failed: $(grep -m1 -iE 'error|undefined' "$log" || tail -n1 "$log") (log: $log)"
    grep -q "undefined reference to \`MPI_Comm_spawn" "$log" &&
      skipped[$impl]="its libmpi has no MPI_Comm_spawn yet: it cannot spawn (log: $log)"
    return
  fi
  # One spawn of one child first: an implementation that cannot spawn here is skipped with the
  # reason, not timed out in every measurement.
  local out="$results/raw/smoke-$impl.txt"
  launch "$impl" 1
  [ "$impl" = openmpi ] && shm_snapshot
  if ! timeout -k 5 60 "${launcher[@]}" "$work/$impl/dpm_bench" spawn --children 1 --iters 1 \
       --stall 50 >"$out" 2>&1 </dev/null; then
    skipped[$impl]="one spawn of one child failed or hung: $(grep -iE 'HUNG|error|fail|abort' "$out" | head -n 4 | tr '\n' ' ' | cut -c1-400) (output: $out)"
  fi
  reap_strays
  [ "$impl" = openmpi ] && clean_ompi_shm
}

# data.tsv: "IMPL LINE" for every line dpm_bench printed (spawn, rate, merge, latency, cycles,
# cycles_done), and "IMPL failed PART N REASON" for a run that ended without its numbers.
data=$results/raw/data.tsv
: >"$data"

# measure IMPL PART N TIMEOUT ARGS...: one run of dpm_bench on N parents.
measure() {
  local impl=$1 part=$2 n=$3 limit=$4 rc out
  shift 4
  out="$results/raw/$part-n$n-$impl.txt"
  launch "$impl" "$n"
  wait_quiet "$part-n$n-$impl"
  [ "$impl" = openmpi ] && shm_snapshot
  timeout -k 5 "$limit" "${launcher[@]}" "$work/$impl/dpm_bench" "$part" "$@" --stall "$stall" \
    >"$out" 2>"$out.err" </dev/null
  rc=$?
  reap_strays
  [ "$impl" = openmpi ] && clean_ompi_shm
  sed "s/^/$impl /" "$out" | grep -E "^$impl (spawn|rate|merge|latency|cycles|cycles_done) " >>"$data"
  if [ "$rc" != 0 ]; then
    local why
    why=$(grep -m1 -E 'HUNG' "$out.err" || grep -m1 -iE 'error|fail|abort' "$out.err" || true)
    [ "$rc" = 124 ] && [ -z "$why" ] && why="no answer within the run's $limit s"
    [ -z "$why" ] && why="exit status $rc"
    echo "$impl failed $part $n ${why//[$'\t\n']/ }" >>"$data"
    printf '  %s, %s on %d parent(s): %s (%s)\n' "$(label "$impl")" "$part" "$n" "$why" "$out.err"
  fi
}

want() { case ,$parts, in *,"$1",*) return 0 ;; esac; return 1; }

echo "DPM benchmarks: $(date '+%F %T'), $ncores cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "load $(cut -d' ' -f1-3 /proc/loadavg)" >"$results/raw/load-start"
prepare_impls "$impls" build_program dpm_bench.c
setup_host_probe "$results/raw"

if want latency; then
  echo "8-byte latency: two ranks of one job, parent <-> spawned child ($pp_iters round trips a batch, 5 batches)"
  for impl in $active; do
    measure "$impl" intra 2 "$run_timeout" --iters "$pp_iters"
    measure "$impl" latency 1 "$run_timeout" --iters "$pp_iters"
  done
fi
if want merge; then
  echo "Intercomm_merge after a spawn: P parents, P children, first merge + $merge_iters merges"
  for n in $parents; do for impl in $active; do
    measure "$impl" merge "$n" "$run_timeout" --children "$n" --iters "$merge_iters"
  done; done
fi
if want spawn; then
  echo "spawn latency: $children children from $parents parents, $spawn_iters spawns each"
  for n in $parents; do for impl in $active; do
    measure "$impl" spawn "$n" $((run_timeout * 2)) --children "$children" --iters "$spawn_iters"
  done; done
fi
if want rate; then
  echo "spawn rate: spawn + disconnect cycles of one child for $rate_s s"
  for impl in $active; do measure "$impl" rate 1 "$run_timeout" --seconds "$rate_s"; done
fi
if want cycles; then
  echo "$cycles spawn / exchange / disconnect cycles (each stopped after $cycle_budget s)"
  for impl in $active; do
    measure "$impl" cycles 1 $((cycle_budget + 120)) --count "$cycles" --progress $((cycles / 10)) \
      --budget "$cycle_budget"
    tail -n 1 "$results/raw/cycles-n1-$impl.txt" | sed "s/^/  $(label "$impl"): /"
  done
fi
echo "load $(cut -d' ' -f1-3 /proc/loadavg)" >"$results/raw/load-end"

# ---- output --------------------------------------------------------------------------------------
csv() {  # csv NAME HEADER AWK-PROGRAM
  { echo "$2"; awk "$3" "$data"; } >"$results/$1.csv"
}
csv spawn impl,parents,children,mean_ms,min_ms,median_ms,max_ms,spawns \
  '$2 == "spawn" { print $1 "," $3 "," $4 "," $5 "," $6 "," $7 "," $8 "," $9 }'
csv rate impl,parents,children,per_second,cycles,seconds '$2 == "rate" { print $1 "," $3 "," $4 "," $5 "," $6 "," $7 }'
csv merge impl,parents,children,first_us,later_us,merges '$2 == "merge" { print $1 "," $3 "," $4 "," $5 "," $6 "," $7 }'
csv latency impl,pair,best_us,median_us,round_trips '$2 == "latency" { print $1 "," $3 "," $4 "," $5 "," $6 }'
csv cycles impl,done,of,seconds,per_second,fds,threads '$2 == "cycles" { print $1 "," $3 "," $4 "," $5 "," $6 "," $7 "," $8 }'
echo
awk -v cycles="$cycles" -v load0="$(cat "$results/raw/load-start")" -v load1="$(cat "$results/raw/load-end")" \
  -v impls="$impls" -v spawn_parents="${parents// /,}" -v spawn_children="$children" \
  -f "$here/report.awk" "$data" | tee "$results/table.txt"
for impl in ${impls//,/ }; do
  [ -n "${skipped[$impl]:-}" ] && echo "$(label "$impl"): skipped: ${skipped[$impl]}" | tee -a "$results/table.txt"
done
echo
quiet_summary
"$here/plot.sh" "$data" "$results"
echo "CSV, table, plots and every run's raw output: $results"
