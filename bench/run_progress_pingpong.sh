#!/bin/sh
# Runs progress_pingpong for 2, 4 and 8 processes with each waiting policy (pure spinning,
# spin-then-yield, and the runtime's default back-off), first passing the token at once and then
# computing 100 us of CPU before each pass. Writes progress_pingpong.csv, progress_pingpong.png
# (when gnuplot is installed) and prints a table. Each point is the median of three runs: the
# machines are small VMs whose neighbours make single runs noisy.
# usage: run_progress_pingpong.sh PROGRAM OUTDIR [SECONDS]
set -eu
prog=$1 outdir=$2 seconds=${3:-1}
mkdir -p "$outdir"
csv="$outdir/progress_pingpong.csv"
echo "procs,policy,work_us,seconds,hops,hops_per_s,rounds_per_s,mean_hop_us,yields,sleeps" >"$csv"
for work in 0 100; do
  for n in 2 4 8; do
    for policy in spin yield backoff; do
      for run in 1 2 3; do
        "$prog" --procs "$n" --policy "$policy" --seconds "$seconds" --work-us "$work"
      done | sort -t, -k6,6n | sed -n 2p >>"$csv"
    done
  done
done

echo "Token ring through shared-memory flags on $(nproc) cores, median of 3 runs of ${seconds} s ($csv)"
awk -F, 'NR == 1 { printf "%5s %-8s %8s %12s %10s %10s %10s %9s\n", "procs", "policy", "work us", "hops/s", "rounds/s", "hop us", "yields", "sleeps"; next }
         { printf "%5d %-8s %8d %12d %10.1f %10.2f %10d %9d\n", $1, $2, $3, $6, $7, $8, $9, $10 }' "$csv"

command -v gnuplot >/dev/null 2>&1 || exit 0
# One inline data block per (work, policy) series, so gnuplot draws each as a connected line.
blocks() {
  for work in 0 100; do
    for policy in spin yield backoff; do
      echo "\$s_${work}_${policy} << EOD"
      awk -F, -v w="$work" -v p="$policy" 'NR > 1 && $2 == p && $3 == w { print $1, $6 }' "$csv"
      echo "EOD"
    done
  done
}
png="$outdir/progress_pingpong.png"
{ blocks; cat <<GP; } | gnuplot
set terminal png size 1100,500
set output "$png"
set multiplot layout 1,2 title "Token ring on $(nproc) cores: hops per second by waiting policy (median of 3)"
set xlabel "processes"
set ylabel "hops per second (log)"
set logscale y
set key top right
set xtics (2, 4, 8)
set xrange [1.5:8.5]
set grid ytics
set title "token passed at once"
plot \$s_0_spin with linespoints lw 2 pt 7 title "spin", \$s_0_yield with linespoints lw 2 pt 7 title "spin, yield", \$s_0_backoff with linespoints lw 2 pt 7 title "spin, yield, sleep (default)"
set title "100 us of CPU work before each pass (ideal: 10000/s)"
set yrange [50:30000]
set key center right
plot \$s_100_spin with linespoints lw 2 pt 7 title "spin", \$s_100_yield with linespoints lw 2 pt 7 title "spin, yield", \$s_100_backoff with linespoints lw 2 pt 7 title "spin, yield, sleep (default)"
unset multiplot
GP
echo "plot: $png"
