#!/bin/bash
# A 2-D halo exchange on MPI_Cart_create grids, with and without reorder, for Plexus, Open MPI
# and MPICH in one invocation (bench/topology/README.md): builds halo_bench.c with each
# implementation's compiler wrapper (as bench/pt2pt and bench/datatype do), runs it at 4 and 8
# ranks, unbound (the launchers' policy for more ranks than cores, bench/lib/common.sh) and bound
# two or four ranks to a core, each with reorder 0 and 1, the implementations interleaved, every
# run under a timeout and redone when the host probe says the host was disturbed; writes
# RESULTS_DIR/topology.csv (impl,ranks,binding,reorder,moved,edge,us_per_step) and a table of
# reorder 1 against reorder 0.
#
# usage: run.sh BUILD_DIR RESULTS_DIR [--quick] [--impl plexus,openmpi,mpich] [--timeout SECONDS]
set -u

here=$(cd "$(dirname "$0")" && pwd)
srcdir=$(cd "$here/../.." && pwd)
usage="usage: run.sh BUILD_DIR RESULTS_DIR [--quick] [--impl plexus,openmpi,mpich] [--timeout SECONDS]"
[ $# -ge 2 ] || { echo "$usage" >&2; exit 2; }
build=$(cd "$1" 2>/dev/null && pwd) || { echo "run.sh: build directory '$1' does not exist" >&2; exit 2; }
results=$2
shift 2
quick=0 impls=plexus,openmpi,mpich run_timeout=''
while [ $# -gt 0 ]; do
  case $1 in
    --quick) quick=1 ;;
    --impl) impls=${2:?--impl wants a list such as plexus,openmpi,mpich}; shift ;;
    --timeout) run_timeout=${2:?--timeout wants seconds}; shift ;;
    *) echo "run.sh: unknown option '$1'" >&2; echo "$usage" >&2; exit 2 ;;
  esac
  shift
done
# shellcheck source=../lib/common.sh
. "$here/../lib/common.sh"
check_impls "$impls"
case ${run_timeout:-1} in *[!0-9]*|0) echo "run.sh: --timeout wants positive seconds, got '$run_timeout'" >&2; exit 2 ;; esac
bench_args=()
if [ "$quick" = 1 ]; then
  bench_args=(--quick); run_timeout=${run_timeout:-60} quiet_wait=2 quiet_total=20 host_wait=10 host_total=60 host_reruns=2
else
  run_timeout=${run_timeout:-90} quiet_wait=5 quiet_total=60 host_reruns=4
fi

mkdir -p "$results/raw" || { echo "run.sh: cannot create $results" >&2; exit 1; }
results=$(cd "$results" && pwd)
rm -rf "$results"/raw/*
work=$(mktemp -d "${TMPDIR:-/tmp}/topology-bench.XXXXXX")
trap 'reap_strays; rm -rf "$work"' EXIT
trap 'exit 130' INT TERM

build_halo() {
  local impl=$1 log="$results/raw/build-$1.log"
  mkdir -p "$work/$impl"
  # shellcheck disable=SC2086
  if ! ${cc_pre[$impl]} -O2 -o "$work/$impl/halo_bench" "$here/halo_bench.c" -I"$srcdir/bench/lib" \
       "$srcdir/bench/lib/cli_numbers.c" ${cc_post[$impl]} >"$log" 2>&1; then
    skipped[$impl]="building halo_bench failed: $(grep -m1 -i error "$log" || tail -n1 "$log") (log: $log)"
  fi
}

# The launcher for IMPL, N ranks and BINDING (none: unbound; core: bound round-robin to cores,
# so with more ranks than cores several share one, which is what reorder can make use of).
topo_launcher() {
  local impl=$1 n=$2 bind=$3
  case $impl in
    plexus) launcher=("$plexrun" -n "$n" --bind-to "$bind") ;;
    openmpi)
      [ "$bind" = core ] && bind=core:overload-allowed
      # shellcheck disable=SC2206
      launcher=(mpirun.openmpi --allow-run-as-root --oversubscribe $ompi_mca -n "$n" --bind-to "$bind") ;;
    mpich) launcher=(mpirun.mpich -n "$n" -bind-to "$bind") ;;
  esac
}

echo "Topology benchmark (2-D halo exchange): $(date '+%F %T'), $ncores cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
prepare_impls "$impls" build_halo "bench/topology/halo_bench.c"
echo "Each at 4 and 8 ranks, unbound (--bind-to none, as above) and bound round-robin to the cores"
echo "(--bind-to core; Open MPI: core:overload-allowed), with reorder 0 and 1."
setup_host_probe "$results/raw"

data="$work/data.tsv"
: >"$data"
for n in 4 8; do
  for bind in none core; do
    for reorder in 0 1; do
      for impl in $active; do
        name="$impl-n$n-$bind-r$reorder"
        out="$results/raw/$name.txt"
        while :; do
          wait_quiet "$name"
          topo_launcher "$impl" "$n" "$bind"
          [ "$impl" = openmpi ] && shm_snapshot
          timeout -k 5 "$run_timeout" "${launcher[@]}" "$work/$impl/halo_bench" --reorder "$reorder" \
            "${bench_args[@]}" >"$out" 2>"$out.err" </dev/null
          rc=$?
          reap_strays
          [ "$impl" = openmpi ] && clean_ompi_shm
          run_disturbed "$name" || break
          set_aside "$results/raw" "$name" "$out" "$out.err"
        done
        [ "$rc" = 0 ] || echo "  $(label "$impl") $n ranks, $bind, reorder $reorder: exit $rc: $(grep -m1 . "$out.err" | cut -c1-160) ($out.err)"
        moved=$(awk '$1 == "GRID" { print $5 }' "$out")
        awk -v impl="$impl" -v n="$n" -v b="$bind" -v r="$reorder" -v m="${moved:--}" \
          '$1 == "RESULT" { print impl, n, b, r, m, $2, $3 }' "$out" >>"$data"
      done
    done
  done
done

csv="$results/topology.csv"
echo "impl,ranks,binding,reorder,moved,edge,us_per_step" >"$csv"
tr ' ' ',' <"$data" >>"$csv"

# The table: per (ranks, binding, edge), us per step for each implementation without and with
# reorder, and how many ranks reorder moved.
echo
awk -v impls="$active" '
  function label(i) { return i == "plexus" ? "Plexus" : i == "openmpi" ? "Open MPI" : "MPICH" }
  { key = $2 SUBSEP $3 SUBSEP $6; v[key, $1, $4] = $7; moved[$1, $2, $3] = $5
    if (!(key in seen)) { seen[key] = 1; order[++n] = key } }
  END {
    ni = split(impls, im, " ")
    printf "%-5s %-7s %6s", "ranks", "binding", "edge"
    for (i = 1; i <= ni; ++i) printf " %22s", label(im[i]) " r0 / r1 (moved)"
    printf "\n"
    for (k = 1; k <= n; ++k) {
      split(order[k], f, SUBSEP)
      printf "%-5s %-7s %6s", f[1], f[2], f[3]
      for (i = 1; i <= ni; ++i) {
        a = v[order[k], im[i], 0]; b = v[order[k], im[i], 1]
        printf " %22s", sprintf("%s / %s (%s)", a == "" ? "-" : a, b == "" ? "-" : b, moved[im[i], f[1], f[2]])
      }
      printf "\n"
    }
  }' "$data" | tee "$results/table.txt"
echo
echo "us per step: the slowest rank's time for one exchange of four faces (median of the runs);"
echo "r0/r1: reorder 0/1; moved: ranks whose grid rank differs from their MPI_COMM_WORLD rank under reorder 1"
quiet_summary
echo "CSV, table and every run's raw output: $results"
