#!/bin/bash
# One-sided benchmarks (bench/osc/osc_bench.c: put/get/accumulate latency and bandwidth under
# fence, PSCW and lock; the ghost-cell update, one put per buffer and one per double) of Plexus
# under each osc_rdma protocol and auto, Open MPI and MPICH, in one invocation: builds osc_bench
# with each implementation's compiler wrapper, runs it at 2 ranks with each launcher (the
# configurations interleaved, every run under a timeout), and writes a table with the ratio of
# auto to the better of Open MPI and MPICH, a CSV file and PNG plots. See bench/osc/README.md.
#
# usage: run.sh BUILD_DIR RESULTS_DIR [--quick] [--impl plexus,openmpi,mpich]
#               [--protocols auto,sendrecv,buffered,rma,nocopy] [--tests LIST] [--repeat N] [--timeout S]
set -u

here=$(cd "$(dirname "$0")" && pwd)
srcdir=$(cd "$here/../.." && pwd)
usage="usage: run.sh BUILD_DIR RESULTS_DIR [--quick] [--impl plexus,openmpi,mpich] [--protocols auto,sendrecv,buffered,rma,nocopy] [--tests LIST] [--repeat N] [--timeout S]"
[ $# -ge 2 ] || { echo "$usage" >&2; exit 2; }
build=$(cd "$1" 2>/dev/null && pwd) || { echo "run.sh: build directory '$1' does not exist" >&2; exit 2; }
results=$2
shift 2
quick=0 impls=plexus,openmpi,mpich protocols=auto,sendrecv,buffered,rma tests='' repeat='' run_timeout=''
while [ $# -gt 0 ]; do
  case $1 in
    --quick) quick=1 ;;
    --impl) impls=${2:?--impl wants a list such as plexus,openmpi,mpich}; shift ;;
    --protocols) protocols=${2:?--protocols wants a list such as auto,buffered}; shift ;;
    --tests) tests=${2:?--tests wants a list of osc_bench tests}; shift ;;
    --repeat) repeat=${2:?--repeat wants a number of runs}; shift ;;
    --timeout) run_timeout=${2:?--timeout wants seconds}; shift ;;
    *) echo "run.sh: unknown option '$1'" >&2; echo "$usage" >&2; exit 2 ;;
  esac
  shift
done
# shellcheck source=../lib/common.sh
. "$here/../lib/common.sh"
check_impls "$impls"
for p in ${protocols//,/ }; do
  case $p in auto|sendrecv|buffered|rma|nocopy) ;;
    *) echo "run.sh: --protocols: '$p' is not one of auto, sendrecv, buffered, rma, nocopy" >&2; exit 2 ;; esac
done
case ${repeat:-1} in ''|*[!0-9]*|0) echo "run.sh: --repeat wants a positive number, got '$repeat'" >&2; exit 2 ;; esac
case ${run_timeout:-1} in ''|*[!0-9]*|0) echo "run.sh: --timeout wants positive seconds, got '$run_timeout'" >&2; exit 2 ;; esac

# ---- what is run ---------------------------------------------------------------------------------
# One run = one configuration (an implementation, for Plexus also a protocol), every test and size
# in one 2-rank launch. Per point osc_bench times batches and prints the best one; the runner keeps
# the best over the runs (up to one rank per core, other load can only slow a batch down).
if [ "$quick" = 1 ]; then
  repeat=${repeat:-1} run_timeout=${run_timeout:-300} quiet_wait=2 quiet_total=10
  host_wait=10 host_total=60 host_reruns=2
  bench_args=(--sizes 8,4096,262144 --ghost-sizes 1,512 --seconds 0.1 --batches 3)
else
  repeat=${repeat:-3} run_timeout=${run_timeout:-900} quiet_wait=5 quiet_total=60
  bench_args=(--sizes 8,64,512,4096,32768,262144 --ghost-sizes 1,8,64,512 --seconds 0.2 --batches 5)
fi
[ -n "$tests" ] && bench_args+=(--tests "$tests")
ranks=2

mkdir -p "$results/raw" || { echo "run.sh: cannot create $results" >&2; exit 1; }
results=$(cd "$results" && pwd)
rm -rf "${results:?}"/raw/*
work=$(mktemp -d "${TMPDIR:-/tmp}/osc-bench.XXXXXX")
trap 'reap_strays; rm -rf "$work"' EXIT
trap 'exit 130' INT TERM

build_program() {
  local impl=$1 log="$results/raw/build-$1.log"
  mkdir -p "$work/$impl"
  # shellcheck disable=SC2086
  if ! ${cc_pre[$impl]} -O2 -o "$work/$impl/osc_bench" "$here/osc_bench.c" -I"$srcdir/bench/lib" \
       "$srcdir/bench/lib/cli_numbers.c" ${cc_post[$impl]} >"$log" 2>&1; then
    skipped[$impl]="building osc_bench failed: $(grep -m1 -iE 'error|undefined' "$log" || tail -n1 "$log") (log: $log)"
    return
  fi
  local out="$results/raw/smoke-$impl.txt"
  set_launcher "$impl" 2
  [ "$impl" = openmpi ] && shm_snapshot
  if ! timeout -k 5 60 "${launcher[@]}" "$work/$impl/osc_bench" --tests put_lat_fence,get_lat_lock,ghost_double_pscw \
       --sizes 8 --ghost-sizes 4 --seconds 0.01 --batches 1 >"$out" 2>&1 </dev/null; then
    skipped[$impl]="a 2-rank smoke run failed: $(grep -v '^#' "$out" | grep -m1 .) (output: $out)"
  fi
  reap_strays
  [ "$impl" = openmpi ] && clean_ompi_shm
}

echo "One-sided benchmarks: $(date '+%F %T'), $ncores cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
prepare_impls "$impls" build_program osc_bench.c
setup_host_probe "$results/raw"

# The configurations: Plexus once per protocol (plexrun --mca osc_rdma_protocol P), the others once.
configs=''
for impl in $active; do
  if [ "$impl" = plexus ]; then
    for p in ${protocols//,/ }; do configs="$configs plexus-$p"; done
  else
    configs="$configs $impl"
  fi
done
echo "configurations:$configs; up to $repeat runs each at $ranks ranks, the best batch of all runs kept"

# run_one CONFIG REP: one launch of every test; output raw/CONFIG-REP.txt (and .err).
run_one() {
  local cfg=$1 rep=$2 impl=${1%%-*} extra=() out rc
  case $cfg in
    # auto without the single copies of fence and PSCW epochs (components/osc_rdma/
    # rdma_epoch_copy.cc): auto as it was before them, beside it in the same run
    plexus-nocopy) extra=(--mca osc_rdma_protocol auto --mca osc_rdma_get_batch_min 0 --mca osc_rdma_put_batch_min 0) ;;
    plexus-*) extra=(--mca osc_rdma_protocol "${cfg#plexus-}") ;;
  esac
  out="$results/raw/$cfg-$rep.txt"
  set_launcher "$impl" "$ranks"
  [ "$impl" = openmpi ] && shm_snapshot
  timeout -k 10 "$run_timeout" "${launcher[@]}" "${extra[@]}" "$work/$impl/osc_bench" "${bench_args[@]}" \
    >"$out" 2>"$out.err" </dev/null
  rc=$?
  reap_strays
  [ "$impl" = openmpi ] && clean_ompi_shm
  [ "$rc" = 0 ] || echo "  $cfg, run $rep: exit $rc ($(grep -m1 . "$out.err" | cut -c1-160)); its missing points are marked failed"
}

t_start=$(date +%s)
for rep in $(seq "$repeat"); do
  for cfg in $configs; do
    while :; do
      wait_quiet "$cfg-$rep"
      t0=$(date +%s)
      run_one "$cfg" "$rep"
      echo "  $cfg, run $rep: $(( $(date +%s) - t0 )) s"
      run_disturbed "$cfg-$rep" || break
      set_aside "$results/raw" "$cfg-$rep" "$results/raw/$cfg-$rep."*
    done
  done
done
echo "all runs: $(( $(date +%s) - t_start )) s"

# ---- output --------------------------------------------------------------------------------------
# data.tsv: test size config value runs (the best batch over the runs; "failed" when none printed it)
data="$results/raw/data.tsv"
awk -f "$here/aggregate.awk" -v configs="$configs" "$results"/raw/*-[0-9]*.txt >"$data"
csv="$results/osc.csv"
echo "impl,protocol,test,size,value,unit,runs" >"$csv"
awk -v OFS=, '{ impl = $3; proto = ""; if (impl ~ /^plexus-/) { proto = substr(impl, 8); impl = "plexus" }
  unit = ($1 ~ /_bw_/) ? "MB/s" : "us"; print impl, proto, $1, $2, $4, unit, $5 }' "$data" >>"$csv"
echo
awk -v configs="$configs" -f "$here/report.awk" "$data" | tee "$results/table.txt"
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$results/table.txt"
quiet_summary | tee -a "$results/table.txt"
"$here/plot.sh" "$data" "$results" "$configs"
echo "CSV, table, plots and every run's raw output: $results"
