#!/bin/bash
# The DPM benchmark suite (the paper's section 6; issue 19 started it, issue 20 completes it):
# spawn latency for 1, 2, 4 parents x 1, 2, 4, 8 children, spawn rate, Intercomm_merge after a
# spawn, accept/connect latency, inter- vs intra-group point-to-point latency and bandwidth,
# inter-communicator collectives, the 1,000-cycle spawn / exchange / disconnect soak and the
# scale model of the connect exchange; for Plexus's dpm_ud (ud and rc modes) and dpm_pmix, Open
# MPI and MPICH in one invocation, each configuration a column, measured when it exists and
# skipped with the reason when not. Writes table.txt (with ratios), one CSV and one PNG per
# benchmark and every run's raw output. See bench/dpm/README.md.
#
# usage: run.sh BUILD_DIR RESULTS_DIR [--quick] [--configs ud,rc,pmix,openmpi,mpich]
#               [--timeout SECONDS] [--cycles N]
#               [--only spawn,rate,merge,connect,p2p,coll,cycles,model] [--bind default|none]
set -u

here=$(cd "$(dirname "$0")" && pwd)
srcdir=$(cd "$here/../.." && pwd)
all_configs=ud,rc,pmix,openmpi,mpich
all_parts=spawn,rate,merge,connect,p2p,coll,cycles,model
usage="usage: run.sh BUILD_DIR RESULTS_DIR [--quick] [--configs $all_configs] [--timeout SECONDS] [--cycles N] [--only $all_parts] [--bind default|none]"
[ $# -ge 2 ] || { echo "$usage" >&2; exit 2; }
build=$(cd "$1" 2>/dev/null && pwd) || { echo "run.sh: build directory '$1' does not exist" >&2; exit 2; }
results_arg=$2
shift 2
quick=0 configs=$all_configs run_timeout='' cycles='' parts=$all_parts bind=default
while [ $# -gt 0 ]; do
  case $1 in
    --quick) quick=1 ;;
    --configs) configs=${2:?--configs wants a list such as ud,pmix,openmpi}; shift ;;
    # issue 19's spelling: plexus stands for every Plexus configuration
    --impl) configs=${2:?--impl wants a list}; configs=${configs//plexus/ud,rc,pmix}; shift ;;
    --timeout) run_timeout=${2:?--timeout wants seconds}; shift ;;
    --cycles) cycles=${2:?--cycles wants a number}; shift ;;
    --only) parts=${2:?--only wants a list such as spawn,coll}; parts=${parts//latency/p2p}; shift ;;
    --bind) bind=${2:?--bind wants default or none}; shift ;;
    *) echo "run.sh: unknown option '$1'" >&2; echo "$usage" >&2; exit 2 ;;
  esac
  shift
done
# shellcheck source=../lib/common.sh
. "$here/../lib/common.sh"
for c in ${configs//,/ }; do
  case ,$all_configs, in *,"$c",*) ;; *) echo "run.sh: --configs: '$c' is not one of $all_configs" >&2; exit 2 ;; esac
done
for p in ${parts//,/ }; do
  case ,$all_parts, in *,"$p",*) ;; *) echo "run.sh: --only: '$p' is not one of $all_parts" >&2; exit 2 ;; esac
done
case $bind in default|none) ;; *) echo "run.sh: --bind: '$bind' is not default or none" >&2; exit 2 ;; esac
case ${run_timeout:-1} in ''|*[!0-9]*|0) echo "run.sh: --timeout wants positive seconds, got '$run_timeout'" >&2; exit 2 ;; esac
case ${cycles:-1} in ''|*[!0-9]*|0) echo "run.sh: --cycles wants a positive number, got '$cycles'" >&2; exit 2 ;; esac

# ---- what is run ---------------------------------------------------------------------------------
# Every run is bounded twice: dpm_bench's own stall timer (--stall: a wait that makes no progress
# for that long ends the process with a HUNG line naming the wait and the cycle) and the run's
# timeout here (then the launcher is killed and its strays reaped).
if [ "$quick" = 1 ]; then
  spawn_iters=3 merge_iters=20 connect_iters=5 rate_s=2 cycles=${cycles:-100} cycle_budget=90
  p2p_sizes=8,1k,64k,1M,4M p2p_seconds=0.2 p2p_iters=5000
  coll_groups="1+3 2+2" coll_sizes=8,32k,2M coll_seconds=0.05
  connect_parents="1 2" connect_children="1 2 4"
  quiet_wait=2 quiet_total=20
else
  spawn_iters=10 merge_iters=100 connect_iters=20 rate_s=5 cycles=${cycles:-1000} cycle_budget=420
  p2p_sizes=8,32,128,512,2k,8k,32k,128k,512k,2M,4M p2p_seconds=0.5 p2p_iters=20000
  coll_groups="1+3 1+7 2+2 4+4" coll_sizes=8,64,512,4k,32k,256k,2M coll_seconds=0.1
  connect_parents="1 2 4" connect_children="1 2 4 8"
  quiet_wait=5 quiet_total=90
fi
run_timeout=${run_timeout:-180} stall=60
parents="1 2 4"
# P parents spawning P children (the paper's Fig. 6), and one or two parents spawning 4 (the
# issue's "a spawn of 4 children").
merge_groups="1+1 1+4 2+2 2+4 4+4"
children=1,2,4,8

bench_results "$results_arg"
bench_workdir dpm-bench
raw=$results/raw

# A configuration is an implementation and, for Plexus, the dpm component and mode it forces.
impl_of() { case $1 in ud|rc|pmix) echo plexus ;; *) echo "$1" ;; esac; }
cname() { case $1 in ud) echo "Plexus ud" ;; rc) echo "Plexus rc" ;; pmix) echo "Plexus pmix" ;; *) label "$1" ;; esac; }
mca_of() {
  case $1 in
    ud|rc) echo "--mca dpm ud --mca dpm_ud_mode $1" ;;
    pmix) echo "--mca dpm pmix" ;;
  esac
}

# Binding: each launcher's default (--bind default), or none anywhere (--bind none: the suite's
# setting up to issue 20's binding of spawned children). plexrun binds a spawned job to the cores
# its running jobs leave free while they all fit (tools/plexrun/README.md); unbound, two processes
# of a 1+1 spawn often share a CPU. Open MPI keeps its default BTLs: between a parent and its
# children it needs tcp (vader does not cross jobs), so common.sh's "btl self,vader" would make
# every spawn's traffic fail. plexrun passes --mca to the jobs it spawns.
# shellcheck disable=SC2207  # the parameters are words on purpose
launch() {  # launch CONFIG N: the launcher command in $launcher
  local nobind=()
  case $(impl_of "$1") in
    plexus) [ "$bind" = none ] && nobind=(--bind-to none)
            launcher=("$plexrun" $(mca_of "$1") -n "$2" "${nobind[@]}") ;;
    openmpi) [ "$bind" = none ] && nobind=(--bind-to none)
             launcher=(mpirun.openmpi --allow-run-as-root --oversubscribe -n "$2" "${nobind[@]}") ;;
    mpich) [ "$bind" = none ] && nobind=(-bind-to none)
           launcher=(mpirun.mpich -n "$2" "${nobind[@]}") ;;
  esac
}
launch_line() {
  local nobind=''
  case $(impl_of "$1") in
    plexus) [ "$bind" = none ] && nobind=' --bind-to none'
            echo "plexrun $(mca_of "$1") -n N$nobind" ;;
    openmpi) [ "$bind" = none ] && nobind=' --bind-to none'
             echo "mpirun.openmpi --allow-run-as-root --oversubscribe -n N$nobind (default BTLs: tcp between jobs)" ;;
    mpich) [ "$bind" = none ] && nobind=' -bind-to none'
           echo "mpirun.mpich -n N$nobind" ;;
  esac
}

sources=(dpm_bench.c dpm_options.c dpm_spawn.c dpm_resources.c dpm_merge.c dpm_connect.c dpm_p2p.c
  dpm_p2p_parts.c dpm_latency.c dpm_bandwidth.c dpm_coll.c stall.c)
build_program() {  # build_program IMPL: dpm_bench with IMPL's wrapper, or skipped[IMPL]
  local impl=$1 log="$raw/build-$1.log" s srcs=()
  mkdir -p "$work/$impl"
  for s in "${sources[@]}"; do srcs+=("$here/$s"); done
  # shellcheck disable=SC2086
  if ! ${cc_pre[$impl]} -O2 -o "$work/$impl/dpm_bench" "${srcs[@]}" -I"$srcdir/bench/lib" \
       "$srcdir/bench/lib/cli_numbers.c" ${cc_post[$impl]} >"$log" 2>&1; then
    skipped[$impl]="building dpm_bench failed: $(grep -m1 -iE 'error|undefined' "$log" || tail -n1 "$log") (log: $log)"
    grep -q "undefined reference to \`MPI_Comm_spawn" "$log" &&
      skipped[$impl]="its libmpi has no MPI_Comm_spawn yet: it cannot spawn (log: $log)"
  fi
}

# Configurations: Plexus's exist when plexus_info finds their component; each must then spawn
# one child in a smoke run, or it is skipped with what the run said.
smoke() {
  local c=$1 impl out="$raw/smoke-$1.txt"
  impl=$(impl_of "$c")
  launch "$c" 1
  [ "$impl" = openmpi ] && shm_snapshot
  if ! timeout -k 5 60 "${launcher[@]}" "$work/$impl/dpm_bench" spawn --children 1 --iters 1 \
       --stall 50 >"$out" 2>&1 </dev/null; then
    skipped[$c]="one spawn of one child failed or hung: $(grep -iE 'HUNG|error|fail|abort' "$out" | head -n 4 | tr '\n' ' ' | cut -c1-400) (output: $out)"
  fi
  reap_strays
  [ "$impl" = openmpi ] && clean_ompi_shm
}

active=''
for c in ${configs//,/ }; do
  impl=$(impl_of "$c")
  why=''
  case $c in
    ud|rc) why=$(plexus_component dpm ud dpm_ud_mode) ;;
    pmix) why=$(plexus_component dpm pmix) ;;
  esac
  [ -n "$why" ] && skipped[$c]=$why
  if [ -z "${skipped[$c]:-}" ] && [ ! -x "$work/$impl/dpm_bench" ] && [ -z "${skipped[$impl]:-}" ]; then
    find_compiler "$impl"
    [ -z "${skipped[$impl]:-}" ] && build_program "$impl"
  fi
  [ -z "${skipped[$c]:-}" ] && [ -n "${skipped[$impl]:-}" ] && skipped[$c]=${skipped[$impl]}
  [ -z "${skipped[$c]:-}" ] && smoke "$c"
  if [ -n "${skipped[$c]:-}" ]; then
    echo "skipping $(cname "$c"): ${skipped[$c]}"
  else
    active="$active $c"
    echo "$(cname "$c"): built with ${cc_pre[$impl]} ...${cc_post[$impl]:+ ${cc_post[$impl]}}; run as $(launch_line "$c")"
  fi
done

# data.tsv: "CONFIG LINE" for every line dpm_bench printed, and "CONFIG failed PART N REASON"
# for a run that ended without its numbers.
data=$raw/data.tsv
: >"$data"

# measure CONFIG PART N TIMEOUT TAG ARGS...: one run of dpm_bench on N parents (TAG names its
# output file beside PART and N).
measure() {
  local c=$1 part=$2 n=$3 limit=$4 tag=$5 rc out impl
  shift 5
  impl=$(impl_of "$c")
  out="$raw/$part-n$n$tag-$c.txt"
  launch "$c" "$n"
  wait_quiet "$part-n$n$tag-$c"
  [ "$impl" = openmpi ] && shm_snapshot
  timeout -k 5 "$limit" "${launcher[@]}" "$work/$impl/dpm_bench" "$part" "$@" --stall "$stall" \
    >"$out" 2>"$out.err" </dev/null
  rc=$?
  reap_strays
  [ "$impl" = openmpi ] && clean_ompi_shm
  sed "s/^/$c /" "$out" |
    grep -E "^$c (spawn|rate|merge|connect|latency|bandwidth|coll|cycles|cycles_done) " >>"$data"
  if [ "$rc" != 0 ]; then
    local why
    why=$(grep -m1 -E 'HUNG' "$out.err" || grep -m1 -iE 'error|fail|abort' "$out.err" || true)
    [ "$rc" = 124 ] && [ -z "$why" ] && why="no answer within the run's $limit s"
    [ -z "$why" ] && why="exit status $rc"
    echo "$c failed $part$tag $n ${why//[$'\t\n']/ }" >>"$data"
    printf '  %s, %s%s on %d parent(s): %s (%s)\n' "$(cname "$c")" "$part" "$tag" "$n" "$why" "$out.err"
  fi
}

want() { case ,$parts, in *,"$1",*) return 0 ;; esac; return 1; }

echo "DPM benchmarks: $(date '+%F %T'), $ncores cores, load $(load_average), binding: $bind"
echo "load $(load_average)" >"$raw/load-start"
[ -n "$active" ] || { echo "run.sh: no configuration left to run" >&2; exit 1; }
setup_host_probe "$raw"

if want spawn; then
  echo "spawn latency: $children children from $parents parents, $spawn_iters spawns each"
  for n in $parents; do for c in $active; do
    measure "$c" spawn "$n" $((run_timeout * 2)) '' --children "$children" --iters "$spawn_iters"
  done; done
fi
if want rate; then
  echo "spawn rate: spawn + disconnect cycles of one child for $rate_s s"
  for c in $active; do measure "$c" rate 1 "$run_timeout" '' --seconds "$rate_s"; done
fi
if want merge; then
  echo "Intercomm_merge after a spawn: groups $merge_groups (parents+children), first merge + $merge_iters merges"
  for g in $merge_groups; do for c in $active; do
    measure "$c" merge "${g%+*}" "$run_timeout" "c${g#*+}" --children "${g#*+}" --iters "$merge_iters"
  done; done
fi
if want connect; then
  echo "accept/connect: $connect_parents parents x $connect_children children, first + $connect_iters connects"
  for n in $connect_parents; do for k in $connect_children; do for c in $active; do
    measure "$c" connect "$n" "$run_timeout" "c$k" --children "$k" --iters "$connect_iters"
  done; done; done
fi
if want p2p; then
  echo "point-to-point latency and bandwidth, ${p2p_sizes} B: two ranks of one job, parent <-> child, merged"
  for c in $active; do
    measure "$c" intra 2 "$run_timeout" '' --sizes "$p2p_sizes" --seconds "$p2p_seconds" --iters "$p2p_iters"
    measure "$c" latency 1 $((run_timeout * 2)) '' --sizes "$p2p_sizes" --seconds "$p2p_seconds" --iters "$p2p_iters"
  done
fi
if want coll; then
  echo "inter-communicator collectives after a spawn, groups $coll_groups, ${coll_sizes} B"
  for g in $coll_groups; do for c in $active; do
    measure "$c" coll "${g%+*}" $((run_timeout * 2)) "c${g#*+}" --children "${g#*+}" --sizes "$coll_sizes" \
      --seconds "$coll_seconds"
  done; done
fi
if want cycles; then
  echo "$cycles spawn / exchange / disconnect cycles (each stopped after $cycle_budget s)"
  for c in $active; do
    measure "$c" cycles 1 $((cycle_budget + 120)) '' --count "$cycles" --progress $((cycles / 10)) \
      --budget "$cycle_budget"
    tail -n 1 "$raw/cycles-n1-$c.txt" | sed "s/^/  $(cname "$c"): /"
  done
fi
echo "load $(load_average)" >"$raw/load-end"

# ---- output --------------------------------------------------------------------------------------
csv() {  # csv NAME HEADER AWK-PROGRAM
  { echo "$2"; awk "$3" "$data"; } >"$results/$1.csv"
}
csv spawn config,parents,children,mean_ms,min_ms,median_ms,max_ms,spawns \
  '$2 == "spawn" { print $1 "," $3 "," $4 "," $5 "," $6 "," $7 "," $8 "," $9 }'
csv rate config,parents,children,per_second,cycles,seconds '$2 == "rate" { print $1 "," $3 "," $4 "," $5 "," $6 "," $7 }'
csv merge config,parents,children,first_us,later_us,merges '$2 == "merge" { print $1 "," $3 "," $4 "," $5 "," $6 "," $7 }'
csv connect config,parents,children,first_us,mean_us,root_min_us,iters \
  '$2 == "connect" { print $1 "," $3 "," $4 "," $5 "," $6 "," $7 "," $8 }'
csv latency config,pair,size,best_us,median_us,round_trips '$2 == "latency" { print $1 "," $3 "," $4 "," $5 "," $6 "," $7 }'
csv bandwidth config,pair,size,mb_per_s,messages '$2 == "bandwidth" { print $1 "," $3 "," $4 "," $5 "," $6 }'
csv coll config,coll,parents,children,size,min_us,avg_us,max_us,calls \
  '$2 == "coll" { print $1 "," $3 "," $4 "," $5 "," $6 "," $7 "," $8 "," $9 "," $10 }'
csv cycles config,done,of,seconds,per_second,fds,threads,rss_kb,shm_files,shm_mapped \
  '$2 == "cycles" { print $1 "," $3 "," $4 "," $5 "," $6 "," $7 "," $8 "," $9 "," $10 "," $11 }'

if want model; then
  "$here/model_inputs.sh" "$build" "$work" "$raw" "$quick" >"$raw/model-inputs.txt" 2>&1 ||
    echo "model inputs: $(tail -n1 "$raw/model-inputs.txt")"
  if [ -s "$raw/dgram_link.csv" ] && [ -s "$raw/dgram_small.csv" ] && [ -s "$raw/tcp.csv" ]; then
    python3 "$here/model.py" --dgram "$raw/dgram_link.csv" --dgram-small "$raw/dgram_small.csv" \
      --tcp "$raw/tcp.csv" --latency "$results/latency.csv" --connect "$results/connect.csv" \
      --out "$results" >"$results/model.txt" 2>&1 || echo "model.py failed: $(tail -n1 "$results/model.txt")"
  else
    echo "the model's inputs are incomplete ($raw/model-inputs.txt): no model" >"$results/model.txt"
  fi
fi

echo
awk -v cycles="$cycles" -v load0="$(cat "$raw/load-start")" -v load1="$(cat "$raw/load-end")" \
  -v configs="$configs" -v spawn_parents="${parents// /,}" -v spawn_children="$children" \
  -f "$here/report.awk" "$data" | tee "$results/table.txt"
for c in ${configs//,/ }; do
  [ -n "${skipped[$c]:-}" ] && echo "$(cname "$c"): skipped: ${skipped[$c]}" | tee -a "$results/table.txt"
done
[ -f "$results/model.txt" ] && { echo; cat "$results/model.txt"; } | tee -a "$results/table.txt"
echo
quiet_summary | tee -a "$results/table.txt"
"$here/plot.sh" "$data" "$results"
echo "CSV, table, plots and every run's raw output: $results"
