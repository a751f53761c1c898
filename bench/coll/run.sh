#!/bin/bash
# Collective latency (Barrier, Bcast, Reduce, Allreduce, Allgather, Alltoall) of Plexus, Open MPI
# and MPICH at 2, 4 and 8 ranks in one invocation: builds coll_bench.c with each implementation's
# compiler wrapper, runs it with each launcher (one run per implementation, rank count and
# collective, every run under a timeout, the implementations interleaved), and writes per
# collective a CSV (impl,ranks,size,value_us,lowest_us,highest_us,runs) and a PNG, and one table
# with Plexus / best-other ratios. See bench/coll/README.md. --mode osu times every point the
# way osu_bcast does instead (coll_bench --mode osu; Bcast by default, 1 KB to 4 MB).
#
# The shm_inter column is Plexus again with coll_shm_inter ahead of coll_basic (--mca coll
# shm_inter,basic, the same binary); the Plexus column is coll_basic alone (--mca coll basic),
# what every earlier table of this README measured.
#
# usage: run.sh BUILD_DIR RESULTS_DIR [--quick] [--mode batches|osu] [--impl plexus,shm_inter,openmpi,mpich]
#               [--ranks 2,4,8] [--colls LIST] [--repeat N] [--timeout SECONDS]
set -u

here=$(cd "$(dirname "$0")" && pwd)
srcdir=$(cd "$here/../.." && pwd)
usage="usage: run.sh BUILD_DIR RESULTS_DIR [--quick] [--mode batches|osu] [--impl plexus,shm_inter,openmpi,mpich] [--ranks 2,4,8] [--colls LIST] [--repeat N] [--timeout SECONDS]"
[ $# -ge 2 ] || { echo "$usage" >&2; exit 2; }
build=$(cd "$1" 2>/dev/null && pwd) || { echo "run.sh: build directory '$1' does not exist" >&2; exit 2; }
results=$2
shift 2
all_colls=barrier,bcast,reduce,allreduce,allgather,alltoall
quick=0 mode=batches impls=plexus,shm_inter,openmpi,mpich ranks=2,4,8 colls='' repeat='' run_timeout=''
while [ $# -gt 0 ]; do
  case $1 in
    --quick) quick=1 ;;
    --mode) mode=${2:?--mode wants batches or osu}; shift ;;
    --impl) impls=${2:?--impl wants a list such as plexus,openmpi,mpich}; shift ;;
    --ranks) ranks=${2:?--ranks wants a list such as 2,4,8}; shift ;;
    --colls) colls=${2:?--colls wants a list such as bcast,allreduce}; shift ;;
    --repeat) repeat=${2:?--repeat wants a number of runs}; shift ;;
    --timeout) run_timeout=${2:?--timeout wants seconds}; shift ;;
    *) echo "run.sh: unknown option '$1'" >&2; echo "$usage" >&2; exit 2 ;;
  esac
  shift
done
case $mode in batches|osu) ;; *) echo "run.sh: --mode: '$mode' is not batches or osu" >&2; exit 2 ;; esac
if [ -z "$colls" ]; then
  colls=$all_colls
  [ "$mode" = osu ] && colls=bcast
fi
# label, reap_strays, find_compiler, set_launcher, launch_flags, wait_quiet, shm_snapshot, ...
# (they need $work, made below, only when called)
# shellcheck source=../lib/common.sh
. "$here/../lib/common.sh"
# shm_inter: a fourth column made of Plexus's compiler and launcher with coll_shm_inter first;
# the Plexus column pins coll_basic. The shared helpers are wrapped, not changed.
eval "common_$(declare -f label)"
eval "common_$(declare -f check_impls)"
eval "common_$(declare -f find_compiler)"
eval "common_$(declare -f set_launcher)"
eval "common_$(declare -f launch_flags)"
label() { if [ "$1" = shm_inter ]; then echo "Plexus shm_inter"; else common_label "$1"; fi; }
check_impls() { common_check_impls "$(echo ",$1," | sed 's/,shm_inter,/,/g; s/^,*//; s/,*$//')"; }
find_compiler() {
  if [ "$1" != shm_inter ]; then common_find_compiler "$1"; return; fi
  common_find_compiler plexus
  cc_pre[shm_inter]=${cc_pre[plexus]:-} cc_post[shm_inter]=${cc_post[plexus]:-}
  [ -z "${skipped[plexus]:-}" ] || skipped[shm_inter]=${skipped[plexus]}
}
coll_mca() { case $1 in plexus) echo "--mca coll basic" ;; shm_inter) echo "--mca coll shm_inter,basic" ;; esac; }
set_launcher() {
  if [ "$1" = shm_inter ]; then common_set_launcher plexus "$2"; else common_set_launcher "$1" "$2"; fi
  # shellcheck disable=SC2206  # two words on purpose
  launcher+=($(coll_mca "$1"))
}
launch_flags() {
  local extra
  extra=$(coll_mca "$1")
  if [ "$1" = shm_inter ]; then echo "$(common_launch_flags plexus) $extra"
  else echo "$(common_launch_flags "$1")${extra:+ $extra}"; fi
}
check_impls "$impls"
for n in ${ranks//,/ }; do
  case $n in ''|*[!0-9]*|0|1) echo "run.sh: --ranks: '$n' is not a rank count of 2 or more" >&2; exit 2 ;; esac
done
for c in ${colls//,/ }; do
  case ,$all_colls, in *,"$c",*) ;;
    *) echo "run.sh: --colls: '$c' is not one of $all_colls" >&2; exit 2 ;; esac
done
case ${repeat:-1} in ''|*[!0-9]*|0) echo "run.sh: --repeat wants a positive number, got '$repeat'" >&2; exit 2 ;; esac
case ${run_timeout:-1} in ''|*[!0-9]*|0) echo "run.sh: --timeout wants positive seconds, got '$run_timeout'" >&2; exit 2 ;; esac

# ---- what is run ---------------------------------------------------------------------------------
# One run = one implementation and rank count, every collective and size in one launch (launching
# costs 1-3 s here). Per size, coll_bench times batches of iterations (see coll_bench.c). A point
# that prints nothing for $point_timeout s is a timeout: the launch is killed, the point marked,
# the rest of that collective not tried, and a new launch goes on with the next collective. A run
# that took more than $budget s is not repeated (MPICH oversubscribed, whose every call waits for
# the scheduler).
if [ "$quick" = 1 ]; then
  repeat=${repeat:-1} point_timeout=${run_timeout:-15} budget=30 quiet_wait=2 quiet_total=10
  host_wait=10 host_total=60 host_reruns=3
  sizes="8,1024,65536,1048576"
  bench_args=(--seconds 0.1 --batches 3 --skip 5)
else
  repeat=${repeat:-4} point_timeout=${run_timeout:-30} budget=40 quiet_wait=5 quiet_total=60
  sizes="8,64,256,1024,4096,16384,65536,262144,1048576"
  bench_args=(--seconds 0.25 --batches 5 --skip 10)
fi
# osu_bcast's loop: 10 untimed and 200 timed calls per size, whatever they take (MPICH's
# oversubscribed calls take milliseconds each, so a point may be silent for longer).
if [ "$mode" = osu ]; then
  sizes="1024,16384,65536,262144,1048576,4194304"
  [ "$quick" = 1 ] && sizes="65536,1048576,4194304"
  point_timeout=${run_timeout:-60}
  bench_args=(--mode osu --skip 10 --max-iters 200)
fi

mkdir -p "$results/raw" || { echo "run.sh: cannot create $results" >&2; exit 1; }
results=$(cd "$results" && pwd)
rm -rf "${results:?}"/raw/*
work=$(mktemp -d "${TMPDIR:-/tmp}/coll-bench.XXXXXX")
trap 'reap_strays; rm -rf "$work"' EXIT
trap 'exit 130' INT TERM

# ---- building ------------------------------------------------------------------------------------
build_program() {
  local impl=$1 log="$results/raw/build-$1.log"
  mkdir -p "$work/$impl"
  # shellcheck disable=SC2086
  if ! ${cc_pre[$impl]} -O2 -o "$work/$impl/coll_bench" "$here/coll_bench.c" "$here/coll_options.c" \
       -I"$srcdir/bench/lib" "$srcdir/bench/lib/cli_numbers.c" \
       "$here/collectives.c" "$srcdir/bench/pt2pt/buffers.c" "$srcdir/bench/pt2pt/affinity.c" \
       "$srcdir/bench/pt2pt/p2p_sync.c" ${cc_post[$impl]} >"$log" 2>&1; then
    skipped[$impl]="building coll_bench failed: $(grep -m1 -iE 'error|undefined' "$log" || tail -n1 "$log") (log: $log)"
    grep -q "undefined reference to \`MPI_" "$log" &&
      skipped[$impl]="${skipped[$impl]}; its libmpi lacks MPI calls the benchmark needs (its collectives not written yet?)"
    return
  fi
  # A tiny run first: an implementation that cannot run at all is skipped, not timed out 50 times.
  local out="$results/raw/smoke-$impl.txt"
  set_launcher "$impl" 2
  [ "$impl" = openmpi ] && shm_snapshot
  if ! timeout -k 5 30 "${launcher[@]}" "$work/$impl/coll_bench" --colls barrier,bcast,allreduce \
       --sizes 8 --seconds 0.01 --batches 1 --skip 1 >"$out" 2>&1 </dev/null; then
    skipped[$impl]="a 2-rank smoke run (barrier, bcast, allreduce of 8 bytes) failed: $(grep -v '^#' "$out" | grep -m1 . ) (output: $out)"
  fi
  reap_strays
  [ "$impl" = openmpi ] && clean_ompi_shm
}

# ---- running -------------------------------------------------------------------------------------
# run_watched OUT ERR COMMAND...: runs COMMAND; kills it when OUT has not grown for
# $point_timeout s (coll_bench prints a line per point). Returns its exit status, 124 for a
# timeout.
run_watched() {
  local out=$1 err=$2 pid size last=-1 idle_since now
  shift 2
  "$@" >"$out" 2>"$err" </dev/null &
  pid=$!
  idle_since=$(date +%s)
  while kill -0 "$pid" 2>/dev/null; do
    sleep 0.2
    size=$(stat -c %s "$out" 2>/dev/null || echo 0)
    now=$(date +%s)
    if [ "$size" != "$last" ]; then last=$size idle_since=$now
    elif [ $((now - idle_since)) -ge "$point_timeout" ]; then
      kill -TERM "$pid" 2>/dev/null
      for _ in 1 2 3 4 5 6 7 8 9 10; do kill -0 "$pid" 2>/dev/null || break; sleep 0.5; done
      kill -KILL "$pid" 2>/dev/null
      wait "$pid" 2>/dev/null
      return 124
    fi
  done
  wait "$pid"
}

# The points of a run, in order: "coll:size" (barrier: "barrier:0").
all_points=()
for c in ${colls//,/ }; do
  if [ "$c" = barrier ]; then all_points+=(barrier:0)
  else for s in ${sizes//,/ }; do all_points+=("$c:$s"); done; fi
done

# launch_args POINT...: the coll_bench options that run these points, the first ones first: all of
# them when the first collective still has all its sizes, else the rest of the first collective.
launch_args() {
  local first=${1%%:*} list='' rest='' p c
  for p in "$@"; do [ "${p%%:*}" = "$first" ] && rest="$rest,${p#*:}"; done
  if [ "$first" != barrier ] && [ "${rest#,}" != "$sizes" ]; then
    echo "--colls $first --sizes ${rest#,}"
    return
  fi
  for p in "$@"; do
    c=${p%%:*}
    case ,$list, in *,"$c",*) ;; *) list="$list,$c" ;; esac
  done
  echo "--colls ${list#,} --sizes $sizes"
}

# run_points IMPL N REP: every point on N ranks, in as many launches as timeouts and failures
# make necessary. Outputs: raw/nN-IMPL-REP.PART.txt (and .err); points that got no number are
# listed as "REP coll size reason" in raw/nN-IMPL.marks.
run_points() {
  local impl=$1 n=$2 rep=$3 part=0 fruitless=0 rc out marks="$results/raw/n$2-$1.marks"
  local remaining=("${all_points[@]}") done_now p first
  set_launcher "$impl" "$n"
  touch "$marks"
  while [ ${#remaining[@]} -gt 0 ]; do
    part=$((part + 1))
    out="$results/raw/n$n-$impl-$rep.$part.txt"
    [ "$impl" = openmpi ] && shm_snapshot
    # shellcheck disable=SC2046  # launch_args prints several words on purpose
    run_watched "$out" "$out.err" "${launcher[@]}" "$work/$impl/coll_bench"       $(launch_args "${remaining[@]}") "${bench_args[@]}"
    rc=$?
    reap_strays
    [ "$impl" = openmpi ] && clean_ompi_shm
    done_now=$(awk 'NF >= 6 && $1 ~ /^[a-z]+$/ { printf " %s:%s ", $1, $2 }' "$out")
    local left=()
    for p in "${remaining[@]}"; do case $done_now in *" $p "*) ;; *) left+=("$p") ;; esac; done
    [ ${#left[@]} -lt ${#remaining[@]} ] && fruitless=0 || fruitless=$((fruitless + 1))
    remaining=("${left[@]}")
    [ ${#remaining[@]} -gt 0 ] || break
    first=${remaining[0]}
    if [ "$rc" = 124 ]; then
      printf '  %s, %d ranks, run %d: %s %s B printed nothing for %d s: timeout; the rest of %s skipped\n' \
        "$(label "$impl")" "$n" "$rep" "${first%%:*}" "${first#*:}" "$point_timeout" "${first%%:*}"
      echo "$rep ${first%%:*} ${first#*:} timeout" >>"$marks"
      left=()
      for p in "${remaining[@]:1}"; do
        if [ "${p%%:*}" = "${first%%:*}" ]; then echo "$rep ${p%%:*} ${p#*:} after_timeout" >>"$marks"
        else left+=("$p"); fi
      done
      remaining=("${left[@]}")
    else
      printf '  %s, %d ranks, run %d: %s %s B failed (exit %d): %s (%s)\n' "$(label "$impl")" "$n" \
        "$rep" "${first%%:*}" "${first#*:}" "$rc" "$(grep -m1 . "$out.err" | cut -c1-160)" "$out.err"
      echo "$rep ${first%%:*} ${first#*:} failed" >>"$marks"
      remaining=("${remaining[@]:1}")
      if [ "$fruitless" -ge 2 ]; then  # two launches in a row that finished nothing: give up
        for p in "${remaining[@]}"; do echo "$rep ${p%%:*} ${p#*:} failed" >>"$marks"; done
        remaining=()
      fi
    fi
  done
}

# data.tsv: coll ranks impl size value [lowest highest runs] (value "timeout", "after_timeout" or
# "failed" when no run finished that point).
data="$work/data.tsv"
: >"$data"

# discard_run IMPL N REP: sets the output of a run on a disturbed host aside (set_aside,
# bench/lib/common.sh) and forgets its marks, so that it can be run again.
discard_run() {
  local impl=$1 n=$2 rep=$3 marks="$results/raw/n$2-$1.marks"
  set_aside "$results/raw" "n$n-$impl-$rep" "$results/raw/n$n-$impl-$rep."*
  awk -v r="$rep" '$1 != r' "$marks" >"$marks.tmp" && mv "$marks.tmp" "$marks"
}

# run_config NRANKS: every implementation on NRANKS ranks, interleaved, up to $repeat times each
# (once only when a run took over $budget s), then one value per point (aggregate.awk). A run
# during which the host was disturbed is run again (run_disturbed, bench/lib/common.sh).
run_config() {
  local n=$1 impl rep t0 c want
  declare -A took
  for rep in $(seq "$repeat"); do
    for impl in $active; do
      [ "${took[$impl]:-0}" -le "$budget" ] || continue
      while :; do
        wait_quiet "n$n-$impl-$rep"
        t0=$(date +%s)
        run_points "$impl" "$n" "$rep"
        took[$impl]=$(( $(date +%s) - t0 ))
        echo "  $(label "$impl"), $n ranks, run $rep: ${took[$impl]} s"
        run_disturbed "n$n-$impl-$rep" || break
        discard_run "$impl" "$n" "$rep"
      done
    done
  done
  # Up to the core count other load can only slow a batch down, so the fastest batch of all runs
  # is the closest to the undisturbed number; oversubscribed, the scheduler's choices are what is
  # measured, so the median batch, and the median over the runs.
  local keep=median
  [ "$n" -le "$ncores" ] && keep=best
  for impl in $active; do
    local outputs=("$results/raw/n$n-$impl-"*.txt)
    [ -e "${outputs[0]}" ] || outputs=()
    for c in ${colls//,/ }; do
      want=$sizes
      [ "$c" = barrier ] && want=0
      awk -v coll="$c" -v n="$n" -v impl="$impl" -v sizes="$want" -v keep="$keep" -v mode="$mode" \
        -f "$here/aggregate.awk" "$results/raw/n$n-$impl.marks" "${outputs[@]}" >>"$data"
    done
  done
}

echo "Collective benchmarks: $(date '+%F %T'), $ncores cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
[ "$quick" = 1 ] && echo "quick mode: sizes ${sizes//,/ } B$([ "$mode" = batches ] && echo '; 0.1 s per point'); a single run each"
[ "$mode" = osu ] && echo "osu mode (osu_bcast's loop): per size 10 untimed and 200 timed calls, a barrier after each; the average over the ranks"
prepare_impls "$impls" build_program coll_bench.c
setup_host_probe "$results/raw"
unit=batch
[ "$mode" = osu ] && unit=run
echo "one run: one implementation and rank count, all points; a point silent for ${point_timeout} s is a timeout;" \
  "up to $repeat runs, one only when a run took over ${budget} s;" \
  "kept: the fastest $unit at up to $ncores ranks, the median $unit (median over runs) above"

for n in ${ranks//,/ }; do run_config "$n"; done

# ---- output --------------------------------------------------------------------------------------
cp "$data" "$results/raw/data.tsv"  # report.awk and plot.sh can be rerun on it
for coll in ${colls//,/ }; do
  csv="$results/$coll.csv"
  echo "impl,ranks,size,value_us,lowest_us,highest_us,runs" >"$csv"
  awk -v c="$coll" -v OFS=, '$1 == c { print $3, $2, $4, $5, $6, $7, $8 }' "$data" >>"$csv"
done
echo
awk -v cores="$ncores" -v mode="$mode" -f "$here/report.awk" "$data" | tee "$results/table.txt"
echo
quiet_summary
"$here/plot.sh" "$data" "$results" "$colls"
echo "CSV, table, plots and every run's raw output: $results"
