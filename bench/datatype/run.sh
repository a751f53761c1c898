#!/bin/bash
# Pack/unpack throughput of derived datatypes for Plexus, Open MPI and MPICH in one invocation
# (bench/datatype/README.md): builds pack_bench.c with each implementation's compiler wrapper
# (as bench/pt2pt/run.sh does), runs it on 2 ranks with each launcher (under a timeout), the
# implementations interleaved, and writes RESULTS_DIR/datatype.csv
# (impl,type,size,op,mbps,ns_per_element), a table with Plexus / best-other ratios and
# RESULTS_DIR/datatype.png (one panel per operation and type family).
#
# usage: run.sh BUILD_DIR RESULTS_DIR [--quick] [--impl plexus,openmpi,mpich] [--timeout SECONDS]
#               [--types vector1,...,face_x,face_y]
set -u

here=$(cd "$(dirname "$0")" && pwd)
srcdir=$(cd "$here/../.." && pwd)
usage="usage: run.sh BUILD_DIR RESULTS_DIR [--quick] [--impl plexus,openmpi,mpich] [--timeout SECONDS] [--types LIST]"
[ $# -ge 2 ] || { echo "$usage" >&2; exit 2; }
build=$(cd "$1" 2>/dev/null && pwd) || { echo "run.sh: build directory '$1' does not exist" >&2; exit 2; }
results=$2
shift 2
quick=0 impls=plexus,openmpi,mpich run_timeout=''
types="vector1 vector8 vector64 vector1024 indexed indexed_block face_x face_y"
while [ $# -gt 0 ]; do
  case $1 in
    --quick) quick=1 ;;
    --impl) impls=${2:?--impl wants a list such as plexus,openmpi,mpich}; shift ;;
    --timeout) run_timeout=${2:?--timeout wants seconds}; shift ;;
    --types) types=${2:?--types wants a list such as face_x,face_y}; types=${types//,/ }; shift ;;
    *) echo "run.sh: unknown option '$1'" >&2; echo "$usage" >&2; exit 2 ;;
  esac
  shift
done
# label, reap_strays, find_compiler, set_launcher, shm_snapshot, clean_ompi_shm (shared with
# bench/pt2pt and bench/coll; they need $work, made below, only when called)
# shellcheck source=../lib/common.sh
. "$here/../lib/common.sh"
check_impls "$impls"
case ${run_timeout:-1} in *[!0-9]*|0) echo "run.sh: --timeout wants positive seconds, got '$run_timeout'" >&2; exit 2 ;; esac
bench_args=()
if [ "$quick" = 1 ]; then bench_args=(--quick); run_timeout=${run_timeout:-120}
else run_timeout=${run_timeout:-600}; fi

mkdir -p "$results/raw" || { echo "run.sh: cannot create $results" >&2; exit 1; }
results=$(cd "$results" && pwd)
rm -f "$results"/raw/*
work=$(mktemp -d "${TMPDIR:-/tmp}/datatype-bench.XXXXXX")
trap 'reap_strays; rm -rf "$work"' EXIT
trap 'exit 130' INT TERM

# prepare IMPL: its compiler (find_compiler), then pack_bench built with it; or skipped[IMPL].
prepare() {
  local impl=$1
  find_compiler "$impl"
  [ -z "${skipped[$impl]:-}" ] || return
  local log="$results/raw/build-$impl.log"
  mkdir -p "$work/$impl"
  # shellcheck disable=SC2086
  if ! ${cc_pre[$impl]} -O2 -o "$work/$impl/pack_bench" "$here/pack_bench.c" -I"$srcdir/bench/lib" "$srcdir/bench/lib/cli_numbers.c" ${cc_post[$impl]} >"$log" 2>&1; then
    skipped[$impl]="building pack_bench failed: $(grep -m1 -i error "$log" || tail -n1 "$log") (log: $log)"
  fi
}

# 2 ranks on 2 cores, one per core, as bench/pt2pt does: the command as one line.
launcher() {
  set_launcher "$1" 2
  echo "${launcher[*]}"
}

echo "Datatype pack/unpack benchmark: $(date '+%F %T'), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
[ "$quick" = 1 ] && echo "quick mode: sizes every 16x, 3 runs per point"
active=''
for impl in ${impls//,/ }; do
  prepare "$impl"
  if [ -n "${skipped[$impl]:-}" ]; then
    echo "skipping $(label "$impl"): ${skipped[$impl]}"
  else
    active="$active $impl"
    echo "$(label "$impl"): ${cc_pre[$impl]} -O2 pack_bench.c; run as: $(launcher "$impl")"
  fi
done
[ -n "$active" ] || { echo "run.sh: no implementation left to run" >&2; exit 1; }

# One run per implementation per type, interleaved, so a slow phase of a shared machine hits
# all of them alike.
data="$work/data.tsv"
: >"$data"
for type in $types; do
  for impl in $active; do
    out="$results/raw/$type-$impl.txt"
    set_launcher "$impl" 2
    [ "$impl" = openmpi ] && shm_snapshot
    timeout -k 5 "$run_timeout" "${launcher[@]}" "$work/$impl/pack_bench" --types "$type" \
      "${bench_args[@]}" >"$out" 2>"$out.err" </dev/null
    rc=$?
    reap_strays
    [ "$impl" = openmpi ] && clean_ompi_shm
    [ "$rc" = 0 ] || echo "  $(label "$impl") $type: exit $rc: $(grep -m1 . "$out.err" | cut -c1-160) ($out.err)"
    awk -v impl="$impl" '$1 == "RESULT" { print impl, $2, $3, $4, $5, $6 }' "$out" >>"$data"
  done
done

csv="$results/datatype.csv"
echo "impl,type,size,op,mbps,ns_per_element" >"$csv"
tr ' ' ',' <"$data" >>"$csv"

# The table: one row per (op, type, size), MB/s per implementation and Plexus / best other.
echo
awk -v impls="$active" '
  function label(i) { return i == "plexus" ? "Plexus" : i == "openmpi" ? "Open MPI" : "MPICH" }
  function human(s) { return s >= 1048576 ? s / 1048576 "M" : s >= 1024 ? s / 1024 "K" : s }
  { key = $4 SUBSEP $2 SUBSEP $3; v[key, $1] = $5; ns[key, $1] = $6
    if (!(key in seen)) { seen[key] = 1; order[++n] = key } }
  END {
    ni = split(impls, im, " ")
    printf "%-8s %-14s %6s", "op", "type", "size"
    for (i = 1; i <= ni; ++i) printf " %14s", label(im[i]) " MB/s"
    if (ni > 1 && impls ~ /plexus/) printf " %9s", "Plexus/best"
    printf " %12s\n", "Plexus ns/el"
    for (k = 1; k <= n; ++k) {
      split(order[k], f, SUBSEP)
      printf "%-8s %-14s %6s", f[1], f[2], human(f[3])
      best = 0
      for (i = 1; i <= ni; ++i) {
        x = v[order[k], im[i]]
        printf " %14s", x == "" ? "-" : sprintf("%.0f", x)
        if (im[i] != "plexus" && x + 0 > best) best = x + 0
      }
      p = v[order[k], "plexus"]
      if (ni > 1 && impls ~ /plexus/) printf " %9s", (p == "" || best == 0) ? "-" : sprintf("%.2f", p / best)
      printf " %12s\n", ns[order[k], "plexus"] == "" ? "-" : sprintf("%.3f", ns[order[k], "plexus"])
    }
  }' "$data" | tee "$results/table.txt"

if command -v gnuplot >/dev/null; then
  plot="$work/plot.gp"
  {
    echo "set terminal pngcairo size 2400,1500 font ',9'"
    echo "set output '$results/datatype.png'"
    echo "set multiplot layout 3,8 title 'Derived datatypes: MB/s of packed data (2 ranks, median run)'"
    echo "set logscale xy; set grid; set key bottom right; set xlabel 'packed bytes'"
    for op in pack unpack sendrecv; do
      for type in $types; do
        clauses=''
        for impl in $active; do
          rows=$(awk -v i="$impl" -v t="$type" -v o="$op" '$1 == i && $2 == t && $4 == o { print $3, $5 }' "$data")
          [ -n "$rows" ] || continue
          printf '$d_%s_%s_%s << EOD\n%s\nEOD\n' "$op" "$type" "$impl" "$rows"
          clauses="${clauses:+$clauses, }\$d_${op}_${type}_${impl} with linespoints lw 2 pt 7 title '$(label "$impl")'"
        done
        echo "set title '$op $type'"
        if [ -n "$clauses" ]; then echo "plot $clauses"; else echo "set multiplot next"; fi
      done
    done
    echo "unset multiplot"
  } >"$plot"
  gnuplot "$plot" 2>"$results/raw/gnuplot.err" || echo "gnuplot failed: $(head -n3 "$results/raw/gnuplot.err")"
else
  echo "gnuplot not installed: no plot"
fi
echo "CSV, table, plot and every run's raw output: $results"
