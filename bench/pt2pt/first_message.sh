#!/bin/bash
# The first message over TCP between two ranks of this host, connection setup included, and the
# steady 8-byte latency after it (first_message.c), in alternating rounds: Plexus (btl_tcp queues
# the first message while it connects; MPI_Send returns once it is out), Open MPI (ob1, btl
# tcp,self) and MPICH (ch4:ucx on UCX's tcp). One job per sample: a connection is first only once. Prints each round's load, then per variant the
# median and the lowest of every column (us).
#
# usage: first_message.sh BUILD_DIR [ROUNDS (default 10)] [ITERS (default 5000)] [VARIANTS]
#   VARIANTS: some of "plexus openmpi mpich" (default: all that build)
#   FIRST_MESSAGE_RAW=DIR keeps every sample (DIR/VARIANT.tsv, the four columns)
set -u
build=$(cd "${1:?usage: first_message.sh BUILD_DIR [ROUNDS] [ITERS]}" && pwd)
rounds=${2:-10} iters=${3:-5000} only=${4:-}
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/first_message.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
export XDG_RUNTIME_DIR=$work/run
mkdir -m 0700 "$XDG_RUNTIME_DIR"

declare -A run
"$build/tools/mpicc/mpicc-build-tree" -O2 -o "$work/plexus" "$here/first_message.c" || exit 1
# shellcheck disable=SC2054 # tcp,self is one word
plexrun=("$build/tools/plexrun/plexrun" -n 2 --bind-to core --timeout 60 --mca btl tcp,self)
run[plexus]="${plexrun[*]} $work/plexus"
variants="plexus"
if command -v mpicc.openmpi >/dev/null && mpicc.openmpi -O2 -o "$work/openmpi" "$here/first_message.c" 2>/dev/null; then
  run[openmpi]="mpirun.openmpi --allow-run-as-root --oversubscribe --mca pml ob1 --mca btl tcp,self -n 2 --bind-to core $work/openmpi"
  variants="$variants openmpi"
fi
if command -v mpicc.mpich >/dev/null && mpicc.mpich -O2 -o "$work/mpich" "$here/first_message.c" 2>/dev/null; then
  run[mpich]="env MPIR_CVAR_NOLOCAL=1 UCX_TLS=tcp,self mpirun.mpich -n 2 -bind-to core $work/mpich"
  variants="$variants mpich"
fi

if [ -n "$only" ]; then
  for v in $only; do [ -n "${run[$v]:-}" ] || { echo "no variant $v here (have: $variants)" >&2; exit 2; }; done
  variants=$only
fi
for r in $(seq 1 "$rounds"); do
  echo "round $r: $(uptime | sed 's/.*load/load/')"
  # Alternate the order, so that neither variant always runs right after the same one.
  order=$variants
  [ $((r % 2)) = 0 ] && order=$(echo "$variants" | tr ' ' '\n' | tac | tr '\n' ' ')
  for v in $order; do
    # shellcheck disable=SC2086 # the command line is words
    line=$(timeout -k 5 90 ${run[$v]} "$iters" 2>>"$work/$v.err" </dev/null | tail -n1)
    case $line in
      [0-9]*) echo "$line" >>"$work/$v.tsv" ;;
      *) echo "  $v: no result ($(tail -n1 "$work/$v.err"))" ;;
    esac
  done
done
[ -n "${FIRST_MESSAGE_RAW:-}" ] && mkdir -p "$FIRST_MESSAGE_RAW" && cp "$work"/*.tsv "$FIRST_MESSAGE_RAW"/
printf '\n%-13s %5s %22s %22s %22s %22s\n' variant runs "send returns (med/min)" "first one-way" "first round trip" "steady 8 B one-way"
for v in $variants; do
  [ -s "$work/$v.tsv" ] || continue
  printf '%-13s %5d' "$v" "$(wc -l <"$work/$v.tsv")"
  for col in 1 2 3 4; do
    cut -d' ' -f$col "$work/$v.tsv" | sort -g | awk '{ a[NR] = $1 } END {
      m = NR % 2 ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2; printf " %13.1f / %6.1f", m, a[1] }'
  done
  echo
done
