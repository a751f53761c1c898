#!/bin/bash
# Point-to-point between two hosts: latency and bandwidth of two ranks on the two "hosts" of
# tests/multinode/netns_cluster.sh (network namespaces joined by veth pairs on a bridge, each with
# its own slurmd), every implementation over its TCP path and started by Slurm: Plexus and Open
# MPI with srun --mpi=pmix (Plexus's default BTLs, tcp between the hosts; Open MPI ob1 over btl
# tcp,self), MPICH with srun --mpi=pmi2 (ch4:ucx on UCX's tcp transport). Needs root and network
# namespaces, as the test does. Prints a table and writes RESULTS/across_latency.csv and
# across_bandwidth.csv (impl,size,value).
# usage: across_hosts.sh BUILD_DIR RESULTS_DIR [--repeat N]
set -u
here=$(cd "$(dirname "$0")" && pwd)
srcdir=$(cd "$here/../.." && pwd)
build=$(cd "${1:?usage: across_hosts.sh BUILD_DIR RESULTS_DIR [--repeat N]}" && pwd) || exit 2
results=${2:?usage: across_hosts.sh BUILD_DIR RESULTS_DIR [--repeat N]}
repeat=3
[ "${3:-}" = --repeat ] && repeat=${4:?--repeat wants a number}
mkdir -p "$results/raw" && results=$(cd "$results" && pwd) || exit 1
PLEXUS_TOP_SRCDIR=$srcdir
. "$srcdir/tests/lib/checks.sh"
. "$srcdir/tests/multinode/netns_cluster.sh"

declare -A cc=([plexus]="$build/tools/mpicc/mpicc-build-tree" [openmpi]=mpicc.openmpi [mpich]=mpicc.mpich)
# What each implementation runs under: its srun plugin, then its environment.
declare -A plugin=([plexus]=pmix [openmpi]=pmix [mpich]=pmi2)
declare -A envs=([plexus]="" [openmpi]="OMPI_MCA_pml=ob1 OMPI_MCA_btl=tcp,self"
                 [mpich]="UCX_TLS=tcp,self")
label() { case $1 in plexus) echo Plexus ;; openmpi) echo "Open MPI" ;; mpich) echo MPICH ;; esac; }

impls=""
for impl in plexus openmpi mpich; do
  mkdir -p "$work/$impl"
  ok=1
  for prog in latency bandwidth; do
    ${cc[$impl]} -O2 -o "$work/$impl/$prog" "$here/$prog.c" "$here/options.c" -I"$srcdir/bench/lib" \
      "$srcdir/bench/lib/cli_numbers.c" "$here/p2p_sync.c" "$here/buffers.c" "$here/affinity.c" \
      >"$results/raw/build-$impl.log" 2>&1 || { ok=0; echo "skipping $(label "$impl"): building $prog failed (raw/build-$impl.log)"; }
  done
  [ $ok = 1 ] && impls="$impls $impl"
done

mn_start || { echo "across_hosts.sh: no two-host cluster here: $mn_why" >&2; exit 1; }
echo "Point-to-point across two namespace hosts (veth + bridge, $mn_addr1 and $mn_addr2): $(date '+%F %T')," \
  "$(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"

lat_args=(--sizes 0,8,1024,8192,65536,1048576 --iters 2000 --skip 50 --iters-large 200 --skip-large 5)
bw_args=(--sizes 8,1024,65536,1048576,4194304 --iters 50 --skip 5 --iters-large 10 --skip-large 2)
# one IMPL BENCH REP ARGS...: one run, its output in raw/BENCH-IMPL-REP.txt
one() {
  local impl=$1 bench=$2 rep=$3; shift 3
  local out="$results/raw/$bench-$impl-$rep.txt"
  # shellcheck disable=SC2086  # several VAR=VALUE words on purpose
  env ${envs[$impl]} timeout -k 5 120 srun --mpi="${plugin[$impl]}" -N 2 -n 2 "$work/$impl/$bench" "$@" \
    >"$out" 2>"$out.err" </dev/null || echo "  $(label "$impl") $bench run $rep failed ($?): $(grep -m1 . "$out.err")"
}
for rep in $(seq "$repeat"); do
  for impl in $impls; do
    one "$impl" latency "$rep" "${lat_args[@]}"
    one "$impl" bandwidth "$rep" "${bw_args[@]}"
  done
done

# The best run of each size (lowest latency, highest bandwidth): other load only slows a run down.
best() {  # best BENCH IMPL: "size value" lines
  local files=("$results/raw/$1-$2-"*.txt)
  awk -v low="$([ "$1" = latency ] && echo 1 || echo 0)" '!/^#/ && NF >= 2 {
      if (!($1 in v) || (low ? $2 < v[$1] : $2 > v[$1])) v[$1] = $2 }
    END { for (s in v) print s, v[s] }' "${files[@]}" 2>/dev/null | sort -n
}
for bench in latency bandwidth; do
  csv="$results/across_$bench.csv"
  echo "impl,size,value" >"$csv"
  for impl in $impls; do best "$bench" "$impl" | awk -v i="$impl" '{ print i "," $1 "," $2 }' >>"$csv"; done
  echo
  echo "$bench ($([ "$bench" = latency ] && echo "one-way us, lower is better" || echo "MB/s, higher is better")), best of $repeat:"
  awk -F, 'NR > 1 { v[$2, $1] = $3; sizes[$2] = 1; impls[$1] = 1 }
    END {
      printf "%10s", "bytes"; n = split("plexus openmpi mpich", order, " ")
      for (k = 1; k <= n; ++k) if (order[k] in impls) printf " %12s", order[k]
      printf "\n"
      m = 0; for (s in sizes) list[++m] = s + 0
      for (a = 1; a <= m; ++a) for (b = a + 1; b <= m; ++b) if (list[b] < list[a]) { t = list[a]; list[a] = list[b]; list[b] = t }
      for (a = 1; a <= m; ++a) {
        printf "%10d", list[a]
        for (k = 1; k <= n; ++k) if (order[k] in impls) printf " %12s", ((list[a], order[k]) in v) ? v[list[a], order[k]] : "-"
        printf "\n"
      }
    }' "$csv"
done
echo
echo "load after the runs: $(cut -d' ' -f1-3 /proc/loadavg); raw output: $results/raw"
