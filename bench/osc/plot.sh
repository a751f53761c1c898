#!/bin/bash
# Plots of bench/osc/run.sh from its data file ("TEST SIZE CONFIG VALUE RUNS"): latency.png (the
# nine latency tests), bandwidth.png (the five bandwidth tests) and ghost.png (the four ghost-cell
# tests), one log-log panel per test, one curve per configuration; failed points are left out.
# usage: plot.sh DATA OUTDIR "CONFIG ..."
set -eu
data=$1 outdir=$2 configs=$3
command -v gnuplot >/dev/null || { echo "gnuplot not installed: no plots"; exit 0; }
mkdir -p "$outdir"

label() {
  case $1 in
    plexus-*) echo "Plexus ${1#plexus-}" ;; openmpi) echo "Open MPI" ;; mpich) echo MPICH ;; *) echo "$1" ;;
  esac
}

# figure FILE ROWS COLS YLABEL XLABEL TEST...: one panel per test.
figure() {
  local file=$1 rows=$2 cols=$3 ylabel=$4 xlabel=$5
  shift 5
  local script="set terminal pngcairo size $((cols * 420)),$((rows * 320)) noenhanced font ',9'
set output \"$outdir/$file\"
set multiplot layout $rows,$cols
set logscale xy 2; set format x '%.0s%c'; set grid; set key top left font ',7'
set xlabel \"$xlabel\"; set ylabel \"$ylabel\"
"
  local t cfg rows_of clauses blocks k=0
  for t in "$@"; do
    clauses='' blocks=''
    for cfg in $configs; do
      rows_of=$(awk -v t="$t" -v c="$cfg" '$1 == t && $3 == c && $4 ~ /^[0-9.]/ { print $2, $4 }' "$data")
      [ -n "$rows_of" ] || continue
      k=$((k + 1))
      blocks="$blocks\$d$k << EOD
$rows_of
EOD
"
      clauses="${clauses:+$clauses, }\$d$k with linespoints lw 2 pt 7 ps 0.6 title \"$(label "$cfg")\""
    done
    if [ -n "$clauses" ]; then
      script="$script${blocks}set title \"$t\"
plot $clauses
"
    else
      script="${script}set title \"$t (no data)\"
set yrange [1:2]
plot 1.5 with lines lc rgb 'white' notitle
set autoscale y
"
    fi
  done
  printf '%s\nunset multiplot\n' "$script" | gnuplot || echo "gnuplot failed for $file"
}

figure latency.png 3 3 "us" "bytes" put_lat_fence get_lat_fence acc_lat_fence put_lat_pscw get_lat_pscw \
  acc_lat_pscw put_lat_lock get_lat_lock acc_lat_lock
figure bandwidth.png 2 3 "MB/s" "bytes" put_bw_fence get_bw_fence put_bw_pscw get_bw_pscw put_bw_lock
figure ghost.png 2 2 "us per iteration" "doubles per neighbour" ghost_buf_fence ghost_buf_pscw \
  ghost_double_fence ghost_double_pscw
