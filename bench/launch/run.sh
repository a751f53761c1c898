#!/bin/bash
# Job launch time, launch to exit, of a hello-world job at 1, 2, 4 and 8 ranks: Plexus's plexrun
# against Debian's Open MPI and MPICH mpirun, in the same run. Prints a table with ratios, writes
# bench/results/launch.csv and launch.png.
# Usage: bench/launch/run.sh BUILD_DIR [REPEATS]
set -eu
build=${1:?usage: run.sh BUILD_DIR [REPEATS]}
build=$(cd "$build" && pwd)
repeats=${2:-15}
here=$(cd "$(dirname "$0")" && pwd)
results="$here/../results"
mkdir -p "$results"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

plexrun="$build/tools/plexrun/plexrun"
mpicc_plexus="$build/tools/mpicc/mpicc-build-tree"
[ -x "$plexrun" ] && [ -x "$mpicc_plexus" ] || { echo "build Plexus first (make -C $build)"; exit 1; }
hello_plexus="$work/hello_plexus"
"$mpicc_plexus" -O2 "$here/hello_mpi.c" -o "$hello_plexus"
mpicc.openmpi -O2 "$here/hello_mpi.c" -o "$work/hello_ompi"
mpicc.mpich -O2 "$here/hello_mpi.c" -o "$work/hello_mpich"

# Median wall time in microseconds of REPEATS runs of a command (one warm-up run first).
median_us() {
  "$@" >/dev/null 2>&1 || { echo "FAILED: $*" >&2; echo -1; return; }
  local times=()
  for _ in $(seq "$repeats"); do
    local t0 t1
    t0=$(date +%s%N)
    "$@" >/dev/null 2>&1
    t1=$(date +%s%N)
    times+=($(( (t1 - t0) / 1000 )))
  done
  printf '%s\n' "${times[@]}" | sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'
}

csv="$results/launch.csv"
echo "ranks,plexus_us,openmpi_us,mpich_us" >"$csv"
printf '%-6s %12s %12s %12s %10s %10s\n' ranks "plexus(ms)" "openmpi(ms)" "mpich(ms)" "ompi/plx" "mpich/plx"
for n in 1 2 4 8; do
  p=$(median_us "$plexrun" -n "$n" "$hello_plexus")
  o=$(median_us mpirun.openmpi --allow-run-as-root --oversubscribe -n "$n" "$work/hello_ompi")
  m=$(median_us mpirun.mpich -n "$n" "$work/hello_mpich")
  echo "$n,$p,$o,$m" >>"$csv"
  awk -v n="$n" -v p="$p" -v o="$o" -v m="$m" 'BEGIN {
    printf "%-6d %12.1f %12.1f %12.1f %10.2f %10.2f\n", n, p / 1000, o / 1000, m / 1000, o / p, m / p }'
done
echo "median of $repeats runs each; wrote $csv"
if command -v gnuplot >/dev/null; then
  gnuplot <<GP
set terminal pngcairo size 800,500
set output "$results/launch.png"
set title "Job launch time, hello world, launch to exit (median of $repeats)"
set xlabel "ranks (2 cores)"; set ylabel "ms"; set logscale x 2; set key top left
set datafile separator ","
plot "$csv" using 1:(\$2/1000) with linespoints title "Plexus plexrun", \
     "$csv" using 1:(\$3/1000) with linespoints title "Open MPI mpirun", \
     "$csv" using 1:(\$4/1000) with linespoints title "MPICH mpirun"
GP
  echo "wrote $results/launch.png"
fi
