#!/bin/bash
# Inter-communicator collective latency (Bcast, Reduce, Allreduce, Allgather, Alltoall, Barrier,
# 8 B to 2 MB) on static inter-communicators of 1+3, 1+7, 2+2 and 4+4 ranks from
# MPI_Intercomm_create, and on the paper's own: one parent spawning 3 and 7 children: Plexus with coll_shm_inter ahead of coll_basic ("shm_inter"), Plexus with
# coll_basic alone ("basic"), Open MPI and MPICH, in one invocation, interleaved. Writes
# COLL.csv (impl,groups,size,value_us,runs), COLL.png and table.txt (ratios shm_inter / the
# better of Open MPI and MPICH, and shm_inter / basic). See bench/coll_inter/README.md. --mode osu
# times every point the way bench/coll's --mode osu and osu_bcast do (a barrier after each call,
# the average over the ranks) instead of the paper's maximum over the ranks.
#
# usage: run.sh BUILD_DIR RESULTS_DIR [--quick] [--mode paper|osu] [--impl shm_inter,shm_pair,shm_lead,shm_poll,basic,openmpi,mpich]
#               [--groups 1+3,1+7,2+2,4+4,s1+3,s1+7] [--colls LIST] [--sizes LIST] [--repeat N] [--timeout SECONDS]
# (sA+B: A processes started that spawn B children, the paper's own experiment.)
set -u

here=$(cd "$(dirname "$0")" && pwd)
srcdir=$(cd "$here/../.." && pwd)
usage="usage: run.sh BUILD_DIR RESULTS_DIR [--quick] [--mode paper|osu] [--impl shm_inter,shm_pair,shm_lead,shm_poll,basic,openmpi,mpich] [--groups 1+3,1+7,2+2,4+4,s1+3,s1+7] [--colls LIST] [--sizes LIST] [--repeat N] [--timeout SECONDS]"
[ $# -ge 2 ] || { echo "$usage" >&2; exit 2; }
build=$(cd "$1" 2>/dev/null && pwd) || { echo "run.sh: build directory '$1' does not exist" >&2; exit 2; }
results=$2
shift 2
impls=shm_inter,basic,openmpi,mpich groups=1+3,1+7,2+2,4+4,s1+3,s1+7 colls=bcast,reduce,allreduce,allgather,alltoall,barrier
repeat=2 run_timeout=120 sizes=8,64,512,4096,32768,262144,524288,2097152 seconds=0.2 mode=paper
while [ $# -gt 0 ]; do
  case $1 in
    --quick) repeat=1 seconds=0.05 sizes=8,4096,524288,2097152 ;;
    --mode) mode=${2:?--mode wants paper or osu}; shift ;;
    --impl) impls=${2:?--impl wants a list}; shift ;;
    --groups) groups=${2:?--groups wants a list such as 1+3,2+2,s1+7}; shift ;;
    --colls) colls=${2:?--colls wants a list}; shift ;;
    --sizes) sizes_given=${2:?--sizes wants a list of bytes}; shift ;;
    --repeat) repeat=${2:?--repeat wants a number}; shift ;;
    --timeout) run_timeout=${2:?--timeout wants seconds}; shift ;;
    *) echo "run.sh: unknown option '$1'" >&2; echo "$usage" >&2; exit 2 ;;
  esac
  shift
done
# After the loop: --quick sets its own sizes, an explicit list wins wherever it stands.
[ -n "${sizes_given:-}" ] && sizes=$sizes_given
case $sizes in *[!0-9,]*|'') echo "run.sh: --sizes: '$sizes' is not a list of byte counts" >&2; exit 2 ;; esac
case $mode in paper|osu) ;; *) echo "run.sh: --mode: '$mode' is not paper or osu" >&2; exit 2 ;; esac
# osu: osu_bcast's loop as bench/coll runs it, 10 untimed and 200 timed calls per point.
timing=(--seconds "$seconds")
[ "$mode" = osu ] && timing=(--mode osu --iters 200)
for g in ${groups//,/ }; do
  case ${g#s} in [1-9]+[1-9]|[1-9]+[1-9][0-9]|[1-9][0-9]+[1-9]*) ;; *) echo "run.sh: --groups: '$g' is not A+B or sA+B" >&2; exit 2 ;; esac
done

work=$(mktemp -d "${TMPDIR:-/tmp}/coll-inter-bench.XXXXXX")
# shellcheck source=../lib/common.sh
. "$here/../lib/common.sh"
trap 'reap_strays; rm -rf "$work"' EXIT
trap 'exit 130' INT TERM
mkdir -p "$results/raw" || { echo "run.sh: cannot create $results" >&2; exit 1; }
results=$(cd "$results" && pwd)
rm -f "$results"/raw/*

name_of() { case $1 in shm_inter) echo "Plexus shm_inter" ;; shm_lead) echo "Plexus shm_inter, Bcast and Reduce by the leaders" ;; shm_pair) echo "Plexus shm_inter, leaders' exchange (no union)" ;; shm_poll) echo "Plexus shm_inter, polling flag waits" ;; basic) echo "Plexus basic" ;; *) label "$1" ;; esac; }
# The implementation whose compiler and launcher an entry uses, and the Plexus parameters it adds.
impl_of() { case $1 in shm_inter|shm_pair|shm_lead|shm_poll|basic) echo plexus ;; *) echo "$1" ;; esac; }
# shm_poll: shm_inter whose flag waits only poll the progress engine (its back-off), never sleep on
# the flag: the wait before flag_wait.h, for A/B runs of the waiting alone. shm_pair: shm_inter
# without the union of both groups' processes on one node (a local phase in each group and the
# leaders' exchange, the design before it), for A/B runs of the union. shm_lead: the union for
# everything but Bcast and Reduce, which go through the leaders (the same Barrier as shm_inter
# around them, unlike shm_pair), for A/B runs of the union's rooted calls.
mca_of() {
  case $1 in
    shm_inter) echo "--mca coll shm_inter,basic" ;;
    shm_poll) echo "--mca coll shm_inter,basic --mca coll_shm_inter_wait_sleep 0" ;;
    shm_pair) echo "--mca coll shm_inter,basic --mca coll_shm_inter_inter_union 0" ;;
    shm_lead) echo "--mca coll shm_inter,basic --mca coll_shm_inter_inter_union_rooted 0" ;;
    basic) echo "--mca coll basic" ;;
  esac
}

active=''
for e in ${impls//,/ }; do
  impl=$(impl_of "$e")
  case $impl in plexus|openmpi|mpich) ;; *) echo "run.sh: --impl: '$e' is not shm_inter, shm_pair, shm_lead, shm_poll, basic, openmpi or mpich" >&2; exit 2 ;; esac
  if [ ! -x "$work/$impl/coll_inter_bench" ] && [ -z "${skipped[$impl]:-}" ]; then
    find_compiler "$impl"
    if [ -z "${skipped[$impl]:-}" ]; then
      mkdir -p "$work/$impl"
      # shellcheck disable=SC2086
      ${cc_pre[$impl]} -O2 -o "$work/$impl/coll_inter_bench" "$here/coll_inter_bench.c" ${cc_post[$impl]} \
        >"$results/raw/build-$impl.log" 2>&1 || skipped[$impl]="building failed ($results/raw/build-$impl.log)"
    fi
  fi
  if [ -n "${skipped[$impl]:-}" ]; then echo "skipping $(name_of "$e"): ${skipped[$impl]}"; else active="$active $e"; fi
done
[ -n "$active" ] || { echo "run.sh: nothing to run" >&2; exit 1; }

echo "Inter-communicator collective benchmarks: $(date '+%F %T'), $ncores cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
if [ "$mode" = osu ]; then
  echo "groups ${groups//,/ }; sizes ${sizes//,/ } B; osu mode: 10 untimed and 200 timed calls per point, a barrier after each, the average over the ranks of their mean; $repeat run(s) each, the fastest kept"
else
  echo "groups ${groups//,/ }; sizes ${sizes//,/ } B; $seconds s per point, the maximum over the ranks of their mean; $repeat run(s) each, the fastest kept"
fi
data="$results/raw/data.tsv"
: >"$data"
for rep in $(seq "$repeat"); do
  for g in ${groups//,/ }; do
    a=${g#s} b=${g#*+}
    a=${a%+*}
    n=$((a + b))
    # sA+B: A processes started, B spawned by them (MPI_Comm_spawn); else A+B split from one job.
    case $g in s*) started=$a groups_args=(--spawn "$b") ;; *) started=$n groups_args=(--a "$a") ;; esac
    for e in $active; do
      impl=$(impl_of "$e")
      set_launcher "$impl" "$started"
      # Binding follows the whole job's size, children included.
      [ "$(binding "$n")" = none ] && launcher=("${launcher[@]/#core/none}")
      # Open MPI's vader does not reach another job's processes: spawned children need tcp too.
      case $g in s*) [ "$impl" = openmpi ] && launcher=("${launcher[@]/#self,vader/self,vader,tcp}") ;; esac
      out="$results/raw/$e-$g-$rep.txt"
      [ "$impl" = openmpi ] && shm_snapshot
      # shellcheck disable=SC2046
      timeout -k 5 "$run_timeout" "${launcher[@]}" $(mca_of "$e") "$work/$impl/coll_inter_bench" "${groups_args[@]}" \
        --colls "$colls" --sizes "$sizes" "${timing[@]}" >"$out" 2>"$out.err" </dev/null
      rc=$?
      reap_strays
      [ "$impl" = openmpi ] && clean_ompi_shm
      [ $rc -eq 0 ] || echo "  $(name_of "$e"), $g, run $rep: exit $rc ($(grep -m1 . "$out.err" | cut -c1-120))"
      # Only the benchmark's own lines: a failing launcher may print other words on stdout. The
      # value is the third field in both modes (the maximum, or osu's average).
      awk -v e="$e" -v g="$g" '$1 ~ /^(bcast|reduce|allreduce|allgather|alltoall|barrier)$/ && (NF == 5 || NF == 6) &&
        $3 ~ /^[0-9.]+$/ { print $1, g, e, $2, $3 }' "$out" >>"$data"
    done
  done
done

# The fastest run per point.
best="$results/raw/best.tsv"
awk '{ k = $1 " " $2 " " $3 " " $4; if (!(k in v) || $5 + 0 < v[k]) v[k] = $5; n[k]++ }
     END { for (k in v) print k, v[k], n[k] }' "$data" | sort -k1,1 -k2,2 -k4,4n >"$best"
for c in ${colls//,/ }; do
  csv="$results/$c.csv"
  echo "impl,groups,size,value_us,runs" >"$csv"
  awk -v c="$c" -v OFS=, '$1 == c { print $3, $2, $4, $5, $6 }' "$best" >>"$csv"
done
awk -f "$here/report.awk" "$best" | tee "$results/table.txt"
"$here/plot.sh" "$best" "$results" "$colls"
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "CSV, table, plots and raw output: $results"
