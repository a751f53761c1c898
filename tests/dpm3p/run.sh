#!/bin/sh
# Third-party-style MPI-2 dynamic-process programs (tests/dpm3p/README.md), compiled with an
# implementation's own mpicc and run with its own launcher, unmodified: each must exit 0 and print
# exactly one " No Errors" line (the MPICH test suite's verdict), within its time limit.
#
#   tests/dpm3p/run.sh                       under make check: Plexus's build-tree mpicc and plexrun
#   tests/dpm3p/run.sh --impl openmpi [PROG...]   mpicc.openmpi / mpirun.openmpi
#   tests/dpm3p/run.sh --impl plexus --builddir DIR [PROG...]
#   tests/dpm3p/run.sh --mca btl self,tcp ...     parameters for every run (repeatable; run_tcp.sh)
set -u
here=$(cd "$(dirname "$0")" && pwd)
impl=plexus
builddir=${PLEXUS_TOP_BUILDDIR:-}
mca=
while [ $# -gt 0 ]; do
  case $1 in
    --impl) impl=$2; shift 2 ;;
    --builddir) builddir=$2; shift 2 ;;
    --mca) [ $# -ge 3 ] || { echo "--mca needs NAME VALUE" >&2; exit 2; }; mca="$mca --mca $2 $3"; shift 3 ;;
    -*) echo "usage: $0 [--impl plexus|openmpi] [--builddir DIR] [--mca NAME VALUE]... [PROG...]" >&2; exit 2 ;;
    *) break ;;
  esac
done

# program  processes  seconds  arguments
table='spawn1 2 60
spawnargv 1 60
spawnintra 2 60
spawnminfo1 1 60
spawninfo1 2 60
disconnect 2 60
namepub 2 60
join 2 60
selfconacc 2 60
concurrent_spawns 2 120 4
loop_spawn 1 300 100'

work=$(mktemp -d "${TMPDIR:-/tmp}/plexus-dpm3p.XXXXXX") || exit 99
trap 'rm -rf "$work"' EXIT
case $impl in
  plexus)
    [ -n "$builddir" ] || { echo "give --builddir DIR (a Plexus build tree)" >&2; exit 2; }
    mpicc=$builddir/tools/mpicc/mpicc-build-tree
    launcher=$builddir/tools/plexrun/plexrun
    [ -x "$launcher" ] || { echo "SKIP: no plexrun (Plexus was built without PMIx)"; exit 77; }
    # Every run its own rendezvous, so that a name published here reaches no other plexrun.
    XDG_RUNTIME_DIR=$work/run
    mkdir -m 0700 "$XDG_RUNTIME_DIR"
    export XDG_RUNTIME_DIR
    for v in $(env | sed -n -e 's/^\(PLEXUS_MCA_[A-Za-z0-9_]*\)=.*/\1/p' -e 's/^\(PMIX_[A-Za-z0-9_]*\)=.*/\1/p'); do
      unset "$v"
    done
    # In an ASan build, libpmix's own leaks are make check's known ones (as run_case.sh does).
    case ${LSAN_OPTIONS:-} in
      *suppressions=*) ;;
      *) LSAN_OPTIONS="suppressions=$here/../lib/lsan-libpmix.supp:print_suppressions=0${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
         export LSAN_OPTIONS ;;
    esac ;;
  openmpi)
    mpicc=mpicc.openmpi
    launcher=mpirun.openmpi
    command -v $mpicc >/dev/null || { echo "SKIP: no mpicc.openmpi"; exit 77; } ;;
  *) echo "unknown implementation $impl" >&2; exit 2 ;;
esac

only=" $* "
echo "$table" | while read -r prog np seconds args; do
  [ "$only" = "  " ] || case $only in *" $prog "*) ;; *) continue ;; esac
  if ! "$mpicc" -O1 -g -Wall -o "$work/$prog" "$here/$prog.c" >"$work/$prog.cc.log" 2>&1; then
    echo "FAIL: $prog: $mpicc failed:"; sed 's/^/  | /' "$work/$prog.cc.log"; echo x >>"$work/failed"; continue
  fi
  # shellcheck disable=SC2086 # $mca: words
  case $impl in
    plexus) set -- "$launcher" -n "$np" --timeout "$seconds" $mca "$work/$prog" ;;
    openmpi) set -- "$launcher" --allow-run-as-root --oversubscribe -n "$np" $mca "$work/$prog" ;;
  esac
  start=$(date +%s.%N)
  status=0
  # shellcheck disable=SC2086
  (cd "$work" && timeout -k 5 $((seconds + 10)) "$@" $args) >"$work/$prog.out" 2>"$work/$prog.err" </dev/null ||
    status=$?
  took=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
  verdicts=$(grep -c '^ No Errors$' "$work/$prog.out")
  if [ "$status" -eq 0 ] && [ "$verdicts" -eq 1 ] && ! grep -q 'Found [0-9]* errors' "$work/$prog.out"; then
    echo "PASS: $prog ($np processes${args:+, $args}${mca:+,$mca}) in $took s"
  else
    echo "FAIL: $prog ($np processes${args:+, $args}${mca:+,$mca}): exit status $status after $took s, $verdicts 'No Errors' line(s)"
    echo "  stdout:"; head -c 3000 "$work/$prog.out" | sed 's/^/  | /'
    echo "  stderr:"; head -c 3000 "$work/$prog.err" | sed 's/^/  | /'
    echo x >>"$work/failed"
  fi
done
if [ -s "$work/failed" ]; then echo "$(wc -l <"$work/failed") program(s) failed"; exit 1; fi
echo "every program passed"
