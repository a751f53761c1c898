#!/bin/bash
# Plots of the DPM benchmark suite from run.sh's data file, one PNG per benchmark, one curve per
# configuration (Plexus ud, rc, pmix, Open MPI, MPICH): spawn.png (latency against children, a
# panel per parent count), rate.png, merge.png, connect.png (a panel per parent count),
# latency.png and bandwidth.png (a panel per pair: inter-group, intra-group, merged),
# coll_NAME.png per collective (a panel per group configuration; rooted ones with the min-max
# range over processes as error bars) and cycles.png (time, descriptors, RSS, /dev/shm against
# the cycles done). model.png comes from model.py.
# usage: plot.sh DATA OUTDIR
set -eu
# shellcheck disable=SC2016  # awk programs and expressions in single quotes, on purpose
data=$1 outdir=$2
command -v gnuplot >/dev/null || { echo "gnuplot not installed: no plots"; exit 0; }
mkdir -p "$outdir"
configs="ud rc pmix openmpi mpich"
cname() { case $1 in ud) echo "Plexus ud" ;; rc) echo "Plexus rc" ;; pmix) echo "Plexus pmix" ;; openmpi) echo "Open MPI" ;; mpich) echo MPICH ;; esac; }

# series NAME AWK-CONDITION COLUMNS CONFIG [STYLE]: an inline data block of the matching lines'
# COLUMNS (awk expressions, space-separated output) and its plot clause, added to $blocks and
# $clauses; nothing when no line matches.
series() {
  local rows
  rows=$(awk "$2 { print $3 }" "$data")
  [ -n "$rows" ] || return 0
  blocks="$blocks\$$1 << EOD
$rows
EOD
"
  clauses="${clauses:+$clauses, }\$$1 ${5:-with linespoints lw 2 pt 7} title \"$(cname "$4")\""
}

# panels OUT TITLE N: starts a multiplot script of N panels side by side.
start() {
  blocks='' script="set terminal pngcairo size $((460 * $3)),460 noenhanced
set output \"$outdir/$1\"
set multiplot layout 1,$3 title \"$2\"
set grid; set key below
"
}
panel() {  # panel TITLE SETTINGS: the clauses gathered so far as one panel (left empty without)
  if [ -n "$clauses" ]; then
    script="${script}set title \"$1\"
$2
plot $clauses
"
  else
    script="${script}set multiplot next
"
  fi
  clauses=''
}
finish() {
  if printf '%s%sunset multiplot\n' "$blocks" "$script" | gnuplot; then
    echo "plot: $outdir/$1"
  else
    echo "gnuplot failed for $outdir/$1"
  fi
}
values() { awk "$1 { print $2 }" "$data" | sort -nu | tr '\n' ' '; }

parents=$(values '$2 == "spawn"' '$3')
if [ -n "$parents" ]; then
  start spawn.png "MPI_Comm_spawn latency at the parent root, ms (mean)" "$(wc -w <<<"$parents")"
  for p in $parents; do
    clauses=''
    for c in $configs; do series "s_${p}_$c" "\$1 == \"$c\" && \$2 == \"spawn\" && \$3 == $p" '$4, $5' "$c"; done
    panel "$p parent(s)" 'set logscale xy; set xlabel "children"; set ylabel "ms"; set xrange [0.8:10]; set xtics (1, 2, 4, 8)'
  done
  finish spawn.png
fi

if grep -q '^[^ ]* rate ' "$data"; then
  start rate.png "spawn + disconnect cycles of one child per second (higher is better)" 1
  clauses='' i=0
  for c in $configs; do
    i=$((i + 1))
    series "r_$c" "\$1 == \"$c\" && \$2 == \"rate\"" "$i, \$5" "$c" "with boxes fs solid 0.6"
  done
  panel "" 'set style fill solid; set boxwidth 0.6; set xrange [0:6]; set xtics ("ud" 1, "rc" 2, "pmix" 3, "Open MPI" 4, "MPICH" 5); set ylabel "spawns/s"; set yrange [0:*]'
  finish rate.png
fi

if grep -q '^[^ ]* merge ' "$data"; then
  start merge.png "first Intercomm_merge after a spawn, us (max over processes)" 2
  clauses=''
  for c in $configs; do series "m_$c" "\$1 == \"$c\" && \$2 == \"merge\" && \$3 == \$4" '$3, $5' "$c"; done
  panel "P parents + P children" 'set logscale xy; set xlabel "parents"; set ylabel "us"; set xrange [0.8:5]; set xtics (1, 2, 4)'
  for c in $configs; do series "m4_$c" "\$1 == \"$c\" && \$2 == \"merge\" && \$4 == 4" '$3, $5' "$c"; done
  panel "P parents + 4 children" 'set logscale xy; set xlabel "parents"; set ylabel "us"; set xrange [0.8:5]; set xtics (1, 2, 4)'
  finish merge.png
fi

parents=$(values '$2 == "connect"' '$3')
if [ -n "$parents" ]; then
  start connect.png "MPI_Comm_accept/connect, us (mean, max over processes)" "$(wc -w <<<"$parents")"
  for p in $parents; do
    clauses=''
    for c in $configs; do series "c_${p}_$c" "\$1 == \"$c\" && \$2 == \"connect\" && \$3 == $p" '$4, $6' "$c"; done
    panel "$p parent(s)" 'set logscale xy; set xlabel "children"; set ylabel "us"; set xrange [0.8:10]; set xtics (1, 2, 4, 8)'
  done
  finish connect.png
fi

for kind in latency bandwidth; do
  grep -q "^[^ ]* $kind " "$data" || continue
  unit=$([ "$kind" = latency ] && echo "one-way us" || echo "MB/s")
  start "$kind.png" "point-to-point $kind, $unit" 3
  for pair in inter intra merged; do
    clauses=''
    for c in $configs; do series "${kind}_${pair}_$c" "\$1 == \"$c\" && \$2 == \"$kind\" && \$3 == \"$pair\"" '$4, $5' "$c"; done
    panel "$pair" "set logscale xy; set xlabel \"bytes\"; set ylabel \"$unit\"; set format x \"%.0s%cB\""
  done
  finish "$kind.png"
done

for coll in bcast reduce allreduce reduce_scatter allgather alltoall barrier; do
  groups=$(awk -v k="$coll" '$2 == "coll" && $3 == k { print $4 "+" $5 }' "$data" | sort -u | tr '\n' ' ')
  [ -n "$groups" ] || continue
  start "coll_$coll.png" "inter-communicator $coll after a spawn, us per call" "$(wc -w <<<"$groups")"
  for g in $groups; do
    clauses=''
    cond="\$2 == \"coll\" && \$3 == \"$coll\" && (\$4 \"+\" \$5) == \"$g\""
    for c in $configs; do
      case $coll in
        bcast|reduce) series "k_${g/+/_}_$c" "\$1 == \"$c\" && $cond" '($6 > 0 ? $6 : 1), $8, $7, $9' "$c" "with yerrorlines lw 2 pt 7" ;;
        *) series "k_${g/+/_}_$c" "\$1 == \"$c\" && $cond" '($6 > 0 ? $6 : 1), $8' "$c" ;;
      esac
    done
    panel "groups $g" 'set logscale xy; set xlabel "bytes"; set ylabel "us"'
  done
  finish "coll_$coll.png"
done

if grep -q '^[^ ]* cycles ' "$data"; then
  start cycles.png "spawn / exchange / disconnect cycles of one child: the parent over the cycles" 4
  for what in "5:elapsed s" "7:descriptors" "9:RSS KiB" "10:/dev/shm entries (machine)"; do
    clauses=''
    for c in $configs; do series "y_${what%%:*}_$c" "\$1 == \"$c\" && \$2 == \"cycles\"" "\$3, \$${what%%:*}" "$c"; done
    panel "${what#*:}" 'set xlabel "cycles done"; set ylabel ""; set yrange [0:*]'
  done
  finish cycles.png
fi
