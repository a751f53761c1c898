#!/bin/sh
# Runs every case of the MPI point-to-point suite (or the named ones) and prints one line each,
# then a summary; exit status 1 if any failed (tests/mpi/README.md).
#
#   run_all.sh [--impl plexus|openmpi|mpich] [--builddir DIR] [--config NAME|all] [CASE...]
#
# --config all (the default for Plexus) runs each case in every configuration make check uses;
# the references run the default configuration only (configurations are Plexus parameters).
# Each run's full output is kept in a log directory, named at the end.
set -u
here=$(cd "$(dirname "$0")" && pwd)
impl=plexus config='' pass_on=''
while [ $# -gt 0 ]; do
  case $1 in
    --impl) impl=$2; shift 2 ;;
    --config) config=$2; shift 2 ;;
    --builddir) pass_on="$pass_on --builddir $2"; shift 2 ;;
    -h|--help) sed -n '2,9p' "$0"; exit 0 ;;
    -*) echo "run_all.sh: unknown option '$1'" >&2; exit 99 ;;
    *) break ;;
  esac
done
if [ -z "$config" ]; then
  if [ "$impl" = plexus ]; then config=all; else config=default; fi
fi
if [ "$config" = all ]; then configs="default self-sm no-fastbox no-single-copy cma-always"; else configs=$config; fi
if [ $# -eq 0 ]; then
  # shellcheck disable=SC2046 # case names have no blanks
  set -- $(cd "$here/cases" && echo *.case | sed 's/\.case//g')
fi

logs=$(mktemp -d "${TMPDIR:-/tmp}/plexus-mpi-$impl.XXXXXX") || exit 99
passed=0 failed=0 skipped=0 failures=''
for c in $configs; do
  for name in "$@"; do
    log=$logs/$c.$name.log
    # shellcheck disable=SC2086
    "$here/run_case.sh" --impl "$impl" --config "$c" $pass_on "$name" >"$log" 2>&1
    rc=$?
    case $rc in
      0) passed=$((passed + 1)) ;;
      77) skipped=$((skipped + 1)); continue ;; # not meant for this configuration, or no plexrun
      *) failed=$((failed + 1)); failures="$failures $c/$name" ;;
    esac
    tail -n 1 "$log"
  done
done
echo "$impl: $passed passed, $failed failed, $skipped skipped; logs in $logs"
[ -z "$failures" ] || { echo "failed:$failures"; exit 1; }
exit 0
