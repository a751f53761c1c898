#!/bin/bash
# Plots of the point-to-point benchmarks from run.sh's data file ("bench ranks impl size value"
# lines): latency.png (one log-log panel per rank count), bandwidth.png and msgrate.png, one curve
# per implementation. Points that timed out or failed are left out; 0-byte latency too (log axis).
# usage: plot.sh DATA OUTDIR
set -eu
data=$1 outdir=$2
command -v gnuplot >/dev/null || { echo "gnuplot not installed: no plots"; exit 0; }

label() { case $1 in plexus) echo Plexus ;; openmpi) echo "Open MPI" ;; mpich) echo MPICH ;; esac; }

# An inline data block $BENCH_N_IMPL of "x value" for each series that has a number; the
# "plot" clause of the series that exist goes to $clauses_BENCH_N.
declare -A clauses
blocks() {
  local bench n impl rows
  for bench in latency bandwidth msgrate; do
    for impl in plexus openmpi mpich; do
      for n in 2 4 8 all; do
        if [ "$bench" = msgrate ]; then  # x axis: ranks
          [ "$n" = all ] || continue
          rows=$(awk -v b="$bench" -v i="$impl" '$1 == b && $3 == i && $5 ~ /^[0-9.]/ { print $2, $5 }' "$data")
        else
          [ "$n" != all ] || continue
          rows=$(awk -v b="$bench" -v n="$n" -v i="$impl" '$1 == b && $2 == n && $3 == i && $4 > 0 && $5 ~ /^[0-9.]/ { print $4, $5 }' "$data")
        fi
        [ -n "$rows" ] || continue
        printf '$%s_%s_%s << EOD\n%s\nEOD\n' "$bench" "$n" "$impl" "$rows"
        clauses[$bench,$n]="${clauses[$bench,$n]:+${clauses[$bench,$n]}, }\$${bench}_${n}_${impl} with linespoints lw 2 pt 7 title \"$(label "$impl")\""
      done
    done
  done
}
blocks_file=$(mktemp)
trap 'rm -f "$blocks_file"' EXIT
blocks >"$blocks_file"

panel() {  # panel BENCH N TITLE
  if [ -n "${clauses[$1,$2]:-}" ]; then
    printf 'set title "%s"\nplot %s\n' "$3" "${clauses[$1,$2]}"
  else
    printf '%s\n' "set title \"$3\"" 'set label 1 "no data" at graph 0.5, 0.3 center front' 'set yrange [0.1:10]' \
      'plot 1 with lines lc rgb "white" notitle' 'unset label 1; set autoscale y'
  fi
}

{
  cat "$blocks_file"
  cat <<GP
set terminal pngcairo size 1500,500
set output "$outdir/latency.png"
set multiplot layout 1,3 title "Ping-pong latency, one-way (half round trip), $(nproc) cores; missing points timed out"
set logscale x 2; set logscale y 10
set xtics ("1" 1, "16" 16, "256" 256, "4K" 4096, "64K" 65536, "1M" 1048576, "4M" 4194304)
set xrange [0.7:6e6]; set xlabel "message size (bytes)"; set ylabel "us"
set grid; set key top left opaque
GP
  panel latency 2 "2 ranks, one per core"
  panel latency 4 "4 ranks (2 pairs at once), not bound"
  panel latency 8 "8 ranks (4 pairs at once), not bound"
  cat <<GP
unset multiplot
set terminal pngcairo size 800,500
set output "$outdir/bandwidth.png"
set title "Streaming bandwidth, 2 ranks, window of 64 (MB = 10^6 B)"
set ylabel "MB/s"; set key top left opaque
GP
  panel bandwidth 2 "Streaming bandwidth, 2 ranks, window of 64 (MB = 10^6 B)"
  cat <<GP
set output "$outdir/msgrate.png"
set xlabel "ranks on $(nproc) cores"; set ylabel "million messages/s, all ranks"
set xtics (2, 4, 8); set xrange [1.8:9]; set key bottom left
GP
  panel msgrate all "All-pairs message rate, 8-byte messages, window of 64"
} | gnuplot
echo "plots: $outdir/latency.png $outdir/bandwidth.png $outdir/msgrate.png"
