#!/bin/bash
# The spawn / exchange / disconnect soak by hand (issue 19): what one parent keeps per spawned
# child over many cycles, and whose it is. For each dpm component it runs dpm_bench's cycles
# under the build tree's plexrun and prints the parent's descriptors, threads, /dev/shm entries
# and resident memory at cycle 100 and at the end, and the resident growth per cycle between them;
# with --heaptrack it runs the parent under heaptrack at a third of the cycles and at all of them
# and splits the difference of the heap at its peak between libpmix and the rest (Plexus's own
# libraries and plugins), per cycle, with the ten largest call sites of the rest.
#
# usage: soak.sh BUILD_DIR [--cycles N] [--configs ud,pmix] [--heaptrack]
# Memory is not time: the numbers hold under load, but the load average is printed anyway.
set -u
usage="usage: soak.sh BUILD_DIR [--cycles N (1000)] [--configs ud,pmix] [--heaptrack]"
build=${1:?$usage}
shift
cycles=1000 configs=ud,pmix heap=0
while [ $# -gt 0 ]; do
  case $1 in
    --cycles) cycles=${2:?$usage}; shift ;;
    --configs) configs=${2:?$usage}; shift ;;
    --heaptrack) heap=1 ;;
    *) echo "$usage" >&2; exit 2 ;;
  esac
  shift
done
case $cycles in ''|*[!0-9]*) echo "soak.sh: --cycles wants a number" >&2; exit 2 ;; esac
[ "$cycles" -ge 200 ] || { echo "soak.sh: --cycles must be at least 200 (cycle 100 is the baseline)" >&2; exit 2; }
plexrun=$build/tools/plexrun/plexrun bench=$build/bench/dpm/dpm_bench
for f in "$plexrun" "$bench"; do [ -x "$f" ] || { echo "soak.sh: no $f (make -C $build bench/dpm/dpm_bench)" >&2; exit 2; }; done
if [ "$heap" = 1 ] && ! command -v heaptrack_print >/dev/null; then
  echo "soak.sh: --heaptrack needs heaptrack (apt-get install heaptrack)" >&2; exit 2
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/soak.XXXXXX")
trap 'rm -rf "$work"' EXIT

# run CONFIG N [heaptrack OUT]: the bench's progress lines every 100 cycles into $work/CONFIG-N.txt.
run() {
  local c=$1 n=$2 mca
  shift 2
  case $c in
    ud) mca=(--mca dpm ud --mca dpm_ud_mode ud) ;;
    pmix) mca=(--mca dpm pmix) ;;
    *) echo "soak.sh: unknown config $c (ud, pmix)" >&2; return 2 ;;
  esac
  timeout -k 5 $((n + 300)) "$plexrun" "${mca[@]}" -n 1 --bind-to none --timeout $((n + 240)) "$@" \
    "$bench" cycles --count "$n" --progress 100 --budget $((n + 200)) >"$work/$c-$n.txt" 2>"$work/$c-$n.err" </dev/null
}

# The progress line of cycle N: "cycles N of seconds rate fds threads rss_kib shm mapped".
at() { awk -v n="$2" '$1 == "cycles" && $2 == n' "$1"; }

# heaptrack_print's peak consumers of A less B, as "bytes owner site" lines.
heap_diff() {
  heaptrack_print -f "$1" -d "$2" -p 1 -a 0 -T 0 -l 0 -n 60 -s 1 2>/dev/null | awk '
    function bytes(s,  v, u) { v = s + 0; u = substr(s, length(s)); return u == "K" ? v * 1024 : u == "M" ? v * 1048576 : u == "G" ? v * 1073741824 : v }
    function flush() { if (size != "") print bytes(size), (pmix ? "libpmix" : "rest"), site; size = ""; pmix = 0; site = "" }
    / peak memory consumed over / { flush(); size = $1; next }
    size != "" && /libpmix/ { pmix = 1 }
    size != "" && site == "" && /^ *(plexus::|PMIx_|pmix_)/ { site = $1; sub(/\(.*/, "", site) }
    END { flush() }'
}

echo "soak: $cycles cycles of spawn one child / exchange / disconnect, configs $configs, load $(cut -d' ' -f1-3 /proc/loadavg)"
for c in ${configs//,/ }; do
  run "$c" "$cycles" || { echo "  $c: failed (status $?): $(tail -n 3 "$work/$c-$cycles.err" | tr '\n' ' ')"; continue; }
  first=$(at "$work/$c-$cycles.txt" 100) last=$(at "$work/$c-$cycles.txt" "$cycles")
  echo "$first $last" | awk -v c="$c" -v n="$cycles" '{
    printf "  %s: %d of %d cycles in %.1f s; fds %d -> %d, threads %d -> %d, /dev/shm %d -> %d, resident %d -> %d KiB: %.2f KiB a cycle from cycle 100\n",
      c, $12, n, $14, $6, $16, $7, $17, $9, $19, $8, $18, ($18 - $8) / (n - 100) }'
  [ "$heap" = 1 ] || continue
  third=$((cycles / 3))
  run "$c" "$third" heaptrack -o "$work/$c-$third" && run "$c" "$cycles" heaptrack -o "$work/$c-$cycles" || {
    echo "  $c: a heaptrack run failed"; continue; }
  heap_diff "$work/$c-$cycles.zst" "$work/$c-$third.zst" >"$work/$c.heap"
  awk -v c="$c" -v n=$((cycles - third)) '
    { sum[$2] += $1; if ($2 == "rest") site[$3] += $1 }
    END {
      printf "  %s, heaptrack, %d against %d cycles: libpmix %.0f bytes a cycle, the rest %.0f\n", c, n + '"$third"', '"$third"', sum["libpmix"] / n, sum["rest"] / n
      for (s in site) if (site[s] >= 1024) printf "    %8.0f bytes a cycle  %s\n", site[s] / n, s
    }' "$work/$c.heap"
done
echo "soak: done, load $(cut -d' ' -f1-3 /proc/loadavg)"
