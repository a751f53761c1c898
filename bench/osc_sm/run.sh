#!/bin/bash
# Runs bench/osc_sm/osc_sm_bench.c at 2 ranks under Plexus (osc_sm, and osc_rdma with
# `--mca osc ^sm` for comparison), Open MPI and MPICH, each built with its own mpicc, with
# MPI_Win_create on MPI_Alloc_mem memory and (Open MPI, MPICH: MPI-3) with MPI_Win_allocate, the
# flavor Open MPI's osc sm serves; the configurations interleaved
# over --repeat rounds, the best value per row kept; prints a Markdown table (microseconds per
# epoch) with the load average before and after, as the README's table was made.
#
# usage: run.sh BUILD_DIR [--repeat N] [--seconds S]
set -u
here=$(cd "$(dirname "$0")" && pwd)
srcdir=$(cd "$here/../.." && pwd)
[ $# -ge 1 ] || { echo "usage: run.sh BUILD_DIR [--repeat N] [--seconds S]" >&2; exit 2; }
build=$(cd "$1" && pwd) || exit 2
shift
repeat=3 seconds=0.2
while [ $# -gt 0 ]; do
  case $1 in
    --repeat) repeat=$2; shift ;;
    --seconds) seconds=$2; shift ;;
    *) echo "run.sh: unknown option $1" >&2; exit 2 ;;
  esac
  shift
done
work=$(mktemp -d "${TMPDIR:-/tmp}/osc-sm-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT

"$build/tools/mpicc/mpicc-build-tree" -O2 -o "$work/plexus" "$here/osc_sm_bench.c" || exit 1
mpicc.openmpi -O2 -o "$work/openmpi" "$here/osc_sm_bench.c" 2>/dev/null || echo "# Open MPI: build failed" >&2
mpicc.mpich -O2 -o "$work/mpich" "$here/osc_sm_bench.c" 2>/dev/null || echo "# MPICH: build failed" >&2

args=(--seconds "$seconds" --batches 5)
run() {  # config -> work/<config>.<round>
  local cfg=$1 out=$2
  case $cfg in
    osc_sm) timeout -k 5 300 "$build/tools/plexrun/plexrun" -n 2 "$work/plexus" "${args[@]}" ;;
    osc_rdma) timeout -k 5 300 "$build/tools/plexrun/plexrun" -n 2 --mca osc ^sm "$work/plexus" "${args[@]}" ;;
    openmpi) timeout -k 5 300 mpirun.openmpi --allow-run-as-root --oversubscribe -n 2 "$work/openmpi" "${args[@]}" ;;
    openmpi_allocate) timeout -k 5 300 mpirun.openmpi --allow-run-as-root --oversubscribe -n 2 "$work/openmpi" "${args[@]}" --allocate ;;
    mpich) timeout -k 5 300 mpirun.mpich -n 2 "$work/mpich" "${args[@]}" ;;
    mpich_allocate) timeout -k 5 300 mpirun.mpich -n 2 "$work/mpich" "${args[@]}" --allocate ;;
  esac >"$out" 2>"$out.err" </dev/null || echo "# $cfg failed: $(head -c 300 "$out.err")" >&2
}
configs=(osc_sm osc_rdma openmpi mpich openmpi_allocate mpich_allocate)
echo "# load before: $(cut -d' ' -f1-3 /proc/loadavg)"
for r in $(seq 1 "$repeat"); do
  for c in "${configs[@]}"; do
    exe=${c%_allocate}; exe=${exe/osc_*/plexus}
    [ -x "$work/$exe" ] && run "$c" "$work/$c.$r"
  done
done
echo "# load after: $(cut -d' ' -f1-3 /proc/loadavg)"
# best over the rounds, per row and configuration
awk -v configs="${configs[*]}" '
  BEGIN { n = split(configs, cfg, " ") }
  FNR == 1 { split(FILENAME, parts, "/"); name = parts[length(parts)]; sub(/\.[0-9]+$/, "", name) }
  /^[a-z]/ { key = $1; if (!(key in seen)) { seen[key] = 1; rows[++nr] = key }
             v = $2 + 0; if (!((key, name) in best) || v < best[key, name]) best[key, name] = v }
  END {
    printf "| us per epoch |"; for (i = 1; i <= n; ++i) printf " %s |", cfg[i]; printf " osc_sm / best of the others |\n"
    printf "|---|"; for (i = 1; i <= n + 1; ++i) printf "---:|"; printf "\n"
    for (r = 1; r <= nr; ++r) {
      k = rows[r]; printf "| %s |", k; other = 0
      for (i = 1; i <= n; ++i) {
        if ((k, cfg[i]) in best) { printf " %.2f |", best[k, cfg[i]]
          if (i > 2 && (other == 0 || best[k, cfg[i]] < other)) other = best[k, cfg[i]] }
        else printf " - |"
      }
      if (other > 0 && (k, "osc_sm") in best) printf " %.2f |\n", best[k, "osc_sm"] / other; else printf " - |\n"
    }
  }' "$work"/*.[0-9]
