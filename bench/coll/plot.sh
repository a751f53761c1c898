#!/bin/bash
# Plots of the collective benchmark from run.sh's data file ("coll ranks impl size value ..."
# lines): COLL.png per collective, one log-log panel (us against message size) per rank count,
# one curve per implementation; barrier.png: us against the rank count. Points that timed out or
# failed are left out.
# usage: plot.sh DATA OUTDIR [COLL,COLL,...]
set -eu
data=$1 outdir=$2 colls=${3:-barrier,bcast,reduce,allreduce,allgather,alltoall}
command -v gnuplot >/dev/null || { echo "gnuplot not installed: no plots"; exit 0; }
mkdir -p "$outdir"

label() { case $1 in plexus) echo "Plexus (basic)" ;; shm_inter) echo "Plexus shm_inter" ;; openmpi) echo "Open MPI" ;; mpich) echo MPICH ;; esac; }
title() {
  case $1 in
    barrier) echo "MPI_Barrier" ;;
    bcast) echo "MPI_Bcast (root 0)" ;;
    reduce) echo "MPI_Reduce (MPI_FLOAT, MPI_SUM, root 0)" ;;
    allreduce) echo "MPI_Allreduce (MPI_FLOAT, MPI_SUM)" ;;
    allgather) echo "MPI_Allgather (size: block per rank)" ;;
    alltoall) echo "MPI_Alltoall (size: block per rank pair)" ;;
  esac
}
cores=$(nproc)
rank_counts=$(awk '{ print $2 }' "$data" | sort -nu | tr '\n' ' ')

# series NAME AWK-CONDITION X-FIELD IMPL: an inline data block and the plot clause for it (nothing
# when the series has no number). Appends to $blocks and $clauses.
series() {
  local name=$1 cond=$2 x=$3 impl=$4 rows
  rows=$(awk "$cond && \$5 ~ /^[0-9.]/ { print \$$x, \$5 }" "$data")
  [ -n "$rows" ] || return 0
  blocks="$blocks\$$name << EOD
$rows
EOD
"
  clauses="${clauses:+$clauses, }\$$name with linespoints lw 2 pt 7 title \"$(label "$impl")\""
}

empty_panel() {
  printf '%s\n' "set title \"$1\"" 'set label 1 "no data" at graph 0.5, 0.5 center front' \
    'set yrange [0.1:10]' 'plot 1 with lines lc rgb "white" notitle' 'unset label 1; set autoscale y'
}

for coll in ${colls//,/ }; do
  blocks='' script=''
  if [ "$coll" = barrier ]; then
    clauses=''
    for impl in plexus shm_inter openmpi mpich; do
      series "barrier_$impl" "\$1 == \"barrier\" && \$3 == \"$impl\"" 2 "$impl"
    done
    script="set terminal pngcairo size 800,500 noenhanced
set output \"$outdir/barrier.png\"
set logscale y 10; set grid; set key below
set xlabel \"ranks on $cores cores\"; set ylabel \"us per call\"
set xtics ($(echo "$rank_counts" | sed 's/ *$//; s/ /, /g')); set xrange [1.5:*]
"
    if [ -n "$clauses" ]; then script="${script}set title \"$(title barrier)\"
plot $clauses
"
    else script="$script$(empty_panel "$(title barrier)")
"; fi
  else
    npanels=$(echo "$rank_counts" | wc -w)
    script="set terminal pngcairo size $((500 * npanels)),560 noenhanced
set output \"$outdir/$coll.png\"
set multiplot layout 1,$npanels title \"$(title "$coll"), us per call (max over ranks of the mean); missing points timed out or failed\"
set logscale x 2; set logscale y 10
set xtics (\"8\" 8, \"64\" 64, \"1K\" 1024, \"16K\" 16384, \"256K\" 262144, \"1M\" 1048576)
set xrange [5:1.6e6]; set xlabel \"message size (bytes)\"; set ylabel \"us\"
set grid; set key below
"
    for n in $rank_counts; do
      clauses=''
      for impl in plexus shm_inter openmpi mpich; do
        series "${coll}_${n}_$impl" "\$1 == \"$coll\" && \$2 == $n && \$3 == \"$impl\"" 4 "$impl"
      done
      if [ "$n" -le "$cores" ]; then what="$n ranks, one per core"; else what="$n ranks on $cores cores, not bound"; fi
      if [ -n "$clauses" ]; then script="${script}set title \"$what\"
plot $clauses
"
      else script="$script$(empty_panel "$what")
"; fi
    done
    script="${script}unset multiplot
"
  fi
  printf '%s%s' "$blocks" "$script" | gnuplot
done
echo "plots: $(for c in ${colls//,/ }; do printf '%s ' "$outdir/$c.png"; done)"
