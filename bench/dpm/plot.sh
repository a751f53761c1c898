#!/bin/bash
# Plots of the DPM benchmark from run.sh's data file: spawn.png (spawn latency against the number
# of children, one panel per parent count, one curve per implementation) and cycles.png (elapsed
# time against cycles done in the long spawn / exchange / disconnect loop).
# usage: plot.sh DATA OUTDIR
set -eu
data=$1 outdir=$2
command -v gnuplot >/dev/null || { echo "gnuplot not installed: no plots"; exit 0; }
label() { case $1 in plexus) echo Plexus ;; openmpi) echo "Open MPI" ;; mpich) echo MPICH ;; esac; }

# series NAME AWK-CONDITION X Y IMPL: an inline data block and its plot clause (none when empty).
series() {
  local rows
  rows=$(awk "$2 { print \$$3, \$$4 }" "$data")
  [ -n "$rows" ] || return 0
  blocks="$blocks\$$1 << EOD
$rows
EOD
"
  clauses="${clauses:+$clauses, }\$$1 with linespoints lw 2 pt 7 title \"$(label "$5")\""
}

parents=$(awk '$2 == "spawn" { print $3 }' "$data" | sort -nu | tr '\n' ' ')
if [ -n "$parents" ]; then
  n=$(echo "$parents" | wc -w)
  blocks='' script="set terminal pngcairo size $((480 * n)),500 noenhanced
set output \"$outdir/spawn.png\"
set multiplot layout 1,$n title \"MPI_Comm_spawn latency at the parent root, ms (mean; $(nproc) cores)\"
set logscale x 2; set logscale y 10; set grid; set key below
set xlabel \"children spawned\"; set ylabel \"ms\"; set xrange [0.8:10]; set xtics (1, 2, 4, 8)
"
  for p in $parents; do
    clauses=''
    for impl in plexus openmpi mpich; do
      series "s_${p}_$impl" "\$1 == \"$impl\" && \$2 == \"spawn\" && \$3 == $p" 4 5 "$impl"
    done
    script="${script}set title \"$p parent(s)\"
plot $clauses
"
  done
  printf '%s%sunset multiplot\n' "$blocks" "$script" | gnuplot
  echo "plot: $outdir/spawn.png"
fi

if grep -q ' cycles ' "$data"; then
  blocks='' clauses=''
  for impl in plexus openmpi mpich; do
    series "c_$impl" "\$1 == \"$impl\" && \$2 == \"cycles\"" 3 5 "$impl"
  done
  printf '%s%s\n' "$blocks" "set terminal pngcairo size 800,500 noenhanced
set output \"$outdir/cycles.png\"
set title \"spawn / exchange / disconnect cycles of one child: elapsed time\"
set xlabel \"cycles done\"; set ylabel \"seconds\"; set grid; set key top left
plot $clauses" | gnuplot
  echo "plot: $outdir/cycles.png"
fi
