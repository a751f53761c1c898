#!/bin/bash
# Point-to-point benchmarks (latency, bandwidth, msgrate) for Plexus, Open MPI and MPICH in one
# invocation: builds each program with each implementation's compiler wrapper, runs it with that
# implementation's launcher (every run under a timeout), and writes per benchmark a CSV
# (impl,ranks,size,value,unit), a PNG plot and a table with Plexus/best-other ratios, then the
# issue's headline rows with target met / not met. See bench/pt2pt/README.md.
#
# The bandwidth runs also run on a busy machine: with --busy N (default 6) spinning processes
# of the runner's own beside the two ranks, for every implementation alike (busy_load.sh).
#
# With --tcp every implementation runs over its TCP path, also between the ranks of this host
# (Plexus btl tcp,self, Open MPI btl tcp,self, MPICH ch4:ucx on UCX's tcp: bench/lib/common.sh).
#
# usage: run.sh BUILD_DIR RESULTS_DIR [--quick] [--impl plexus,openmpi,mpich] [--repeat N]
#               [--timeout SECONDS] [--busy N] [--tcp]
set -u

here=$(cd "$(dirname "$0")" && pwd)
srcdir=$(cd "$here/../.." && pwd)
usage="usage: run.sh BUILD_DIR RESULTS_DIR [--quick] [--impl plexus,openmpi,mpich] [--repeat N] [--timeout SECONDS] [--busy N] [--tcp]"
[ $# -ge 2 ] || { echo "$usage" >&2; exit 2; }
build=$(cd "$1" 2>/dev/null && pwd) || { echo "run.sh: build directory '$1' does not exist" >&2; exit 2; }
results=$2
shift 2
quick=0 impls=plexus,openmpi,mpich repeat='' run_timeout='' busy=6 tcp=0
while [ $# -gt 0 ]; do
  case $1 in
    --quick) quick=1 ;;
    --impl) impls=${2:?--impl wants a list such as plexus,openmpi,mpich}; shift ;;
    --repeat) repeat=${2:?--repeat wants a number of runs}; shift ;;
    --timeout) run_timeout=${2:?--timeout wants seconds}; shift ;;
    --busy) busy=${2:?--busy wants a number of spinning processes}; shift ;;
    --tcp) tcp=1 ;;
    *) echo "run.sh: unknown option '$1'" >&2; echo "$usage" >&2; exit 2 ;;
  esac
  shift
done
# label, reap_strays, find_compiler, binding, set_launcher, launch_flags, wait_quiet, quiet_summary
# (they need $work, made below, only when called)
# shellcheck source=../lib/common.sh
. "$here/../lib/common.sh"
# busy_start, busy_stop
# shellcheck source=busy_load.sh
. "$here/busy_load.sh"
[ "$tcp" = 1 ] && use_tcp_paths
check_impls "$impls"
case ${repeat:-1} in ''|*[!0-9]*|0) echo "run.sh: --repeat wants a positive number, got '$repeat'" >&2; exit 2 ;; esac
case ${run_timeout:-1} in ''|*[!0-9]*|0) echo "run.sh: --timeout wants positive seconds, got '$run_timeout'" >&2; exit 2 ;; esac
case $busy in ''|*[!0-9]*) echo "run.sh: --busy wants a number of processes (0: no busy runs), got '$busy'" >&2; exit 2 ;; esac

# ---- what is run ---------------------------------------------------------------------------------
# Sizes are always passed explicitly, so that sizes missing from a run cut short are known.
pow2() { local s=1 list=0; while [ "$s" -le "$1" ]; do list="$list,$s"; s=$((s * 2)); done; echo "$list"; }
if [ "$quick" = 1 ]; then
  repeat=${repeat:-1} run_timeout=${run_timeout:-30} budget=15 quiet_wait=5 quiet_total=20
  host_wait=10 host_total=60 host_reruns=3
  quick_sizes="8,64,512,4096,32768,262144,1048576,4194304"
  lat2_args=(--sizes "0,$quick_sizes" --iters 2000 --skip 50 --iters-large 200 --skip-large 5)
  latn_args=(--sizes "8,65536" --seconds 0.3 --skip 5 --skip-large 2)
  bw_args=(--sizes "1,$quick_sizes" --iters 20 --skip 2 --iters-large 10 --skip-large 1)
  bw_busy_args=(--sizes "65536,1048576,4194304" --iters 10 --skip 1 --iters-large 5 --skip-large 1)
  mr_seconds=0.3
else
  # OSU's own counts for 2 ranks (osu_latency: 10000/100 up to 8 KiB, 1000/10 above; osu_bw:
  # 100/10 and 20/2, window 64). Oversubscribed latency and all message rates are timed instead
  # (see latency.c and msgrate.c): there MPICH takes a scheduler timeslice per hop.
  repeat=${repeat:-3} run_timeout=${run_timeout:-60} budget=40 quiet_wait=30 quiet_total=240
  lat2_args=(--sizes "$(pow2 4194304)" --iters 10000 --skip 100 --iters-large 1000 --skip-large 10)
  latn_args=(--sizes "0,8,1024,65536,1048576" --seconds 1 --skip 10 --skip-large 2)
  bw_args=(--sizes "$(pow2 4194304 | cut -d, -f2-)" --iters 100 --skip 10 --iters-large 20 --skip-large 2)
  # Busy: fewer iterations (a busy machine is slow for everyone, and the runs are repeated anyway).
  bw_busy_args=(--sizes "65536,262144,1048576,4194304" --iters 20 --skip 2 --iters-large 10 --skip-large 2)
  mr_seconds=1
fi
mr_args=(--sizes "8" --window 64 --seconds "$mr_seconds" --skip 10)
mkdir -p "$results/raw" || { echo "run.sh: cannot create $results" >&2; exit 1; }
results=$(cd "$results" && pwd)
rm -rf "${results:?}"/raw/*
work=$(mktemp -d "${TMPDIR:-/tmp}/pt2pt.XXXXXX")
trap 'busy_stop; reap_strays; rm -rf "$work"' EXIT
trap 'exit 130' INT TERM

# ---- building ------------------------------------------------------------------------------------
build_programs() {
  local impl=$1 prog log="$results/raw/build-$1.log"
  mkdir -p "$work/$impl"
  : >"$log"
  for prog in latency bandwidth msgrate; do
    # shellcheck disable=SC2086
    if ! ${cc_pre[$impl]} -O2 -o "$work/$impl/$prog" "$here/$prog.c" "$here/options.c" \
         -I"$srcdir/bench/lib" "$srcdir/bench/lib/cli_numbers.c" \
         "$here/p2p_sync.c" "$here/buffers.c" "$here/affinity.c" ${cc_post[$impl]} >>"$log" 2>&1; then
      skipped[$impl]="building $prog failed: $(grep -m1 -i error "$log" || tail -n1 "$log") (log: $log)"
      return
    fi
  done
  # A tiny run first: an implementation that cannot run at all is skipped, not timed out 20 times.
  local out="$results/raw/smoke-$impl.txt"
  set_launcher "$impl" 2
  if ! timeout -k 5 30 "${launcher[@]}" "$work/$impl/latency" --sizes "8" --iters 10 --skip 1 \
       >"$out" 2>&1 </dev/null; then
    skipped[$impl]="a 2-rank smoke run failed: $(grep -v '^#' "$out" | grep -m1 . ) (output: $out)"
  fi
}

# ---- running -------------------------------------------------------------------------------------
# data.tsv: bench ranks impl size value [lowest highest runs] (value "timeout"/"failed" when no run
# finished that size).
data="$work/data.tsv"
: >"$data"

# run_config [--busy] BENCH NRANKS ARGS...: runs BENCH for every implementation, interleaved, up to
# $repeat times each (fewer once an implementation has spent $budget seconds or timed out), then
# keeps one value per size (which one: see below). With --busy each run has $busy spinning
# processes of our own started just before it and stopped right after (the machine is first left
# to settle as for any run, so that the load is ours); the host probe would then only measure our
# load, so such a run is never redone, and its results are named BENCH-busy.
run_config() {
  local load=idle
  [ "$1" = --busy ] && { load=busy; shift; }
  local bench=$1 n=$2 impl rep sizes tag=$1
  [ "$load" = busy ] && tag=$bench-busy
  shift 2
  sizes=$(echo "$*" | sed -n 's/.*--sizes \([0-9,]*\).*/\1/p')
  declare -A spent status
  for rep in $(seq "$repeat"); do
    for impl in $active; do
      [ "${status[$impl]:-ok}" = ok ] || continue
      [ "${spent[$impl]:-0}" -lt "$budget" ] || continue
      local out="$results/raw/$tag-n$n-$impl-$rep.txt" t0 rc
      set_launcher "$impl" "$n"
      while :; do
        wait_quiet "$tag-n$n-$impl-$rep"
        [ "$impl" = openmpi ] && shm_snapshot
        t0=$(date +%s)
        if [ "$load" = busy ]; then
          busy_start "$busy" $((run_timeout + 10))
          sleep 0.5  # the loops are running everywhere before the ranks start
        fi
        timeout -k 5 "$run_timeout" "${launcher[@]}" "$work/$impl/$bench" "$@" >"$out" 2>"$out.err" </dev/null
        rc=$?
        [ "$load" = busy ] && busy_stop
        reap_strays
        [ "$impl" = openmpi ] && clean_ompi_shm
        spent[$impl]=$(( ${spent[$impl]:-0} + $(date +%s) - t0 ))
        [ "$load" = busy ] && break
        # A run on a disturbed host (bench/lib/common.sh) goes to raw/disturbed/ and is run again.
        { [ "$rc" = 0 ] && run_disturbed "$tag-n$n-$impl-$rep"; } || break
        set_aside "$results/raw" "$tag-n$n-$impl-$rep" "$out" "$out.err"
      done
      case $rc in 0) ;; 124|137) status[$impl]=timeout ;; *) status[$impl]="failed" ;; esac
      if [ "$rc" != 0 ]; then
        printf '  %s %s, %d ranks, run %d: %s (exit %d): %s (%s)\n' "$(label "$impl")" "$tag" "$n" \
          "$rep" "${status[$impl]}" "$rc" "$(grep -m1 . "$out.err" | cut -c1-160)" "$out.err"
      fi
    done
  done
  # Up to the core count, other load can only slow a run down, so the best run is the one closest
  # to the undisturbed number; oversubscribed or busy, the scheduler's choices are what is
  # measured, so the median (with the range of the runs).
  local keep=median
  [ "$n" -le "$ncores" ] && [ "$load" = idle ] && keep=best
  for impl in $active; do
    local outputs=("$results/raw/$tag-n$n-$impl-"*.txt)
    [ -e "${outputs[0]}" ] || outputs=(/dev/null)
    awk -v bench="$tag" -v n="$n" -v impl="$impl" -v sizes="$sizes" -v why="${status[$impl]:-ok}" \
        -v keep="$keep" -v lower_is_better="$([ "$bench" = latency ] && echo 1 || echo 0)" \
        -f "$here/aggregate.awk" "${outputs[@]}" >>"$data"
  done
}

echo "Point-to-point benchmarks: $(date '+%F %T'), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
[ "$quick" = 1 ] && echo "quick mode: fewer sizes and iterations, a single run each"
[ "$tcp" = 1 ] && echo "TCP paths: every implementation over TCP sockets, also between ranks of this host"
prepare_impls "$impls" build_programs PROGRAM.c
setup_host_probe "$results/raw"
echo "every run: timeout ${run_timeout} s; up to $repeat runs per point, fewer once ${budget} s are spent;" \
  "kept: the best run at 2 ranks, the median when oversubscribed or busy"
[ "$busy" -gt 0 ] && echo "busy runs: $busy spinning processes of the runner's own beside the ranks, started before each run and stopped after it"

for n in 2 4 8; do
  if [ "$n" = 2 ]; then run_config latency 2 "${lat2_args[@]}"
  else run_config latency "$n" "${latn_args[@]}"; fi
done
run_config bandwidth 2 "${bw_args[@]}"
[ "$busy" -gt 0 ] && run_config --busy bandwidth 2 "${bw_busy_args[@]}"
for n in 2 4 8; do run_config msgrate "$n" "${mr_args[@]}"; done

# ---- output --------------------------------------------------------------------------------------
unit() { case $1 in latency) echo us ;; bandwidth) echo MB/s ;; msgrate) echo Mmsg/s ;; esac; }
for bench in latency bandwidth msgrate; do
  csv="$results/$bench.csv"
  echo "impl,ranks,size,value,unit" >"$csv"
  awk -v b="$bench" -v u="$(unit "$bench")" '$1 == b { print $3 "," $2 "," $4 "," $5 "," u }' "$data" >>"$csv"
done
if [ "$busy" -gt 0 ]; then
  echo "impl,ranks,size,value,lowest,highest,unit" >"$results/bandwidth_busy.csv"
  awk '$1 == "bandwidth-busy" { print $3 "," $2 "," $4 "," $5 "," $6 "," $7 ",MB/s" }' "$data" >>"$results/bandwidth_busy.csv"
fi

echo
echo "Binding the kernel reported for each rank (cpus per rank, rank 0 first):"
for impl in $active; do
  for n in 2 4 8; do
    f=("$results/raw/latency-n$n-$impl-"*.txt)
    [ -e "${f[0]}" ] && printf '  %-9s %d ranks, --bind-to %-4s: %s\n' "$(label "$impl")" "$n" "$(binding "$n")" \
      "$(sed -n 's/^# cpus per rank: //p' "${f[0]}")"
  done
done

cp "$data" "$results/raw/data.tsv"  # report.awk and plot.sh can be rerun on it
awk -v cores="$ncores" -v busy="$busy" -f "$here/report.awk" "$data"
echo
quiet_summary
"$here/plot.sh" "$data" "$results"
echo "CSV, plots and every run's raw output: $results"
