#!/bin/bash
# COLL.png per collective from bench/coll_inter/run.sh's best.tsv: one log-log panel (us against
# message size) per group configuration, one curve per implementation.
# usage: plot.sh BEST_TSV OUTDIR COLLS
set -eu
data=$1 outdir=$2 colls=$3
command -v gnuplot >/dev/null || { echo "gnuplot not installed: no plots"; exit 0; }
names() { case $1 in shm_inter) echo "Plexus shm_inter" ;; shm_poll) echo "Plexus shm_inter, polling waits" ;; shm_pair) echo "Plexus shm_inter, no union" ;; basic) echo "Plexus basic" ;; openmpi) echo "Open MPI" ;; mpich) echo MPICH ;; esac; }
for c in ${colls//,/ }; do
  configs=$(awk -v c="$c" '$1 == c { print $2 }' "$data" | sort -u | tr '\n' ' ')
  [ -n "$configs" ] || continue
  n=$(echo "$configs" | wc -w)
  script="set terminal pngcairo size $((420 * n)),400; set output '$outdir/$c.png'; set multiplot layout 1,$n title 'inter-communicator $c'
set logscale y; set xlabel 'bytes'; set ylabel 'us per call'; set key top left
"
  [ "$c" = barrier ] || script="$script set logscale x 2;
"
  for g in $configs; do
    clauses=''
    for e in shm_inter shm_pair shm_poll basic openmpi mpich; do
      rows=$(awk -v c="$c" -v g="$g" -v e="$e" '$1 == c && $2 == g && $3 == e { print ($1 == "barrier" ? 1 : $4), $5 }' "$data")
      [ -n "$rows" ] || continue
      script="$script\$d_${e}_${g/+/_} << EOD
$rows
EOD
"
      clauses="${clauses:+$clauses, }\$d_${e}_${g/+/_} with linespoints lw 2 pt 7 title '$(names "$e")'"
    done
    [ -n "$clauses" ] && script="${script}set title 'groups $g'; plot $clauses
"
  done
  printf '%s\nunset multiplot\n' "$script" | gnuplot 2>/dev/null || echo "gnuplot failed for $c"
done
