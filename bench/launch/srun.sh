#!/bin/bash
# Job launch time under Slurm, launch to exit, of a hello-world job at 2, 4 and 8 ranks across the
# two "hosts" of tests/multinode/netns_cluster.sh (network namespaces, a slurmd each): srun
# --mpi=pmix for Plexus and Open MPI, srun --mpi=pmi2 for MPICH (Debian's MPICH speaks PMI, not
# PMIx), in the same run. Needs root and network namespaces, as the test does. Prints a table with
# ratios and writes bench/results/launch_srun.csv.
# Usage: bench/launch/srun.sh BUILD_DIR [REPEATS]
set -u
build=$(cd "${1:?usage: srun.sh BUILD_DIR [REPEATS]}" && pwd) || exit 2
repeats=${2:-10}
here=$(cd "$(dirname "$0")" && pwd)
srcdir=$(cd "$here/../.." && pwd)
results="$here/../results"
mkdir -p "$results"
PLEXUS_TOP_SRCDIR=$srcdir
. "$srcdir/tests/lib/checks.sh"
. "$srcdir/tests/multinode/netns_cluster.sh"

"$build/tools/mpicc/mpicc-build-tree" -O2 "$here/hello_mpi.c" -o "$work/hello_plexus" || exit 1
mpicc.openmpi -O2 "$here/hello_mpi.c" -o "$work/hello_ompi" || exit 1
mpicc.mpich -O2 "$here/hello_mpi.c" -o "$work/hello_mpich" || exit 1
mn_start || { echo "srun.sh: no two-host cluster here: $mn_why" >&2; exit 1; }

# Median wall time in microseconds of REPEATS runs of a command (one warm-up run first); -1 when
# the warm-up fails.
median_us() {
  timeout -k 5 60 "$@" >"$work/warmup.out" 2>&1 </dev/null ||
    { echo "FAILED: $*: $(grep -m1 . "$work/warmup.out")" >&2; echo -1; return; }
  local times=() t0 t1
  for _ in $(seq "$repeats"); do
    t0=$(date +%s%N)
    timeout -k 5 60 "$@" >/dev/null 2>&1 </dev/null
    t1=$(date +%s%N)
    times+=($(( (t1 - t0) / 1000 )))
  done
  printf '%s\n' "${times[@]}" | sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'
}

echo "srun launch across 2 namespace hosts: $(date '+%F %T'), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
csv="$results/launch_srun.csv"
echo "ranks,plexus_us,openmpi_us,mpich_us" >"$csv"
printf '%-6s %12s %12s %12s %10s %10s\n' ranks "plexus(ms)" "openmpi(ms)" "mpich(ms)" "ompi/plx" "mpich/plx"
for n in 2 4 8; do
  p=$(median_us srun --mpi=pmix -N 2 -n "$n" -O "$work/hello_plexus")
  o=$(median_us env OMPI_MCA_pml=ob1 srun --mpi=pmix -N 2 -n "$n" -O "$work/hello_ompi")
  m=$(median_us srun --mpi=pmi2 -N 2 -n "$n" -O "$work/hello_mpich")
  echo "$n,$p,$o,$m" >>"$csv"
  awk -v n="$n" -v p="$p" -v o="$o" -v m="$m" 'BEGIN {
    printf "%-6d %12.1f %12.1f %12.1f %10.2f %10.2f\n", n, p / 1000, o / 1000, m / 1000, o / p, m / p }'
done
echo "median of $repeats runs each (after one warm-up); load now $(cut -d' ' -f1-3 /proc/loadavg); wrote $csv"
