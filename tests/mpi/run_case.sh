#!/bin/sh
# Runs one case of the MPI point-to-point suite and judges it (tests/mpi/README.md).
#
#   run_case.sh [--impl plexus|openmpi|mpich] [--config NAME] [--mca NAME VALUE]...
#               [--builddir DIR] CASE
#
# CASE is a case name (tests/mpi/cases/NAME.case) or the path of a .case file. --config NAME adds
# the settings of tests/mpi/configs/NAME.conf (default: none). --impl plexus (the default) runs
# the program built in the Plexus build tree (--builddir, or $PLEXUS_TOP_BUILDDIR as make check
# sets it) under tools/plexrun/plexrun; --impl openmpi and --impl mpich compile the program with
# mpicc.openmpi / mpicc.mpich into $PLEXUS_MPI_REF_DIR (default ${TMPDIR:-/tmp}/plexus-mpi-ref)
# and run it with mpirun.openmpi / mpirun.mpich; `mca` settings are Plexus parameters and only
# apply to Plexus (`openmpi-mca` ones only to Open MPI).
#
# Prints the command, the job's output and one last line "PASS: ..." or "FAIL: ...: why". Under
# Plexus a parameter it does not know fails the run (the configuration would not have applied).
# Exit status: 0 passed, 1 failed, 77 skipped (no plexrun: Plexus was built without PMIx; or the
# case's `configs` line excludes this configuration), 99 the case or the tools are missing or
# the command line is wrong.
set -u
set -f # case files hold regular expressions: no globbing anywhere

here=$(cd "$(dirname "$0")" && pwd)
me=run_case.sh

die() { echo "$me: $*" >&2; exit 99; }
usage() { sed -n '3,5p' "$0" >&2; exit 99; }

impl=plexus config=default builddir=${PLEXUS_TOP_BUILDDIR:-} extra_mca='' case_arg=''
while [ $# -gt 0 ]; do
  case $1 in
    --impl) [ $# -ge 2 ] || usage; impl=$2; shift 2 ;;
    --config) [ $# -ge 2 ] || usage; config=$2; shift 2 ;;
    --builddir) [ $# -ge 2 ] || usage; builddir=$2; shift 2 ;;
    --mca) [ $# -ge 3 ] || usage; extra_mca="$extra_mca --mca $2 $3"; shift 3 ;;
    -h|--help) usage ;;
    -*) echo "$me: unknown option '$1'" >&2; usage ;;
    *) [ -z "$case_arg" ] || die "one case at a time (got '$case_arg' and '$1')"; case_arg=$1; shift ;;
  esac
done
[ -n "$case_arg" ] || usage
case $impl in plexus|openmpi|mpich) ;; *) die "--impl must be plexus, openmpi or mpich, not '$impl'" ;; esac

case $case_arg in
  */*|*.case) case_file=$case_arg ;;
  *) case_file=$here/cases/$case_arg.case ;;
esac
[ -f "$case_file" ] || die "no case file $case_file (cases: $(cd "$here/cases" && set +f && echo *.case | sed 's/\.case//g'))"
case_name=$(basename "$case_file" .case)
config_file=$here/configs/$config.conf
[ -f "$config_file" ] || die "no configuration $config_file (configurations: $(cd "$here/configs" && set +f && echo *.conf | sed 's/\.conf//g'))"

# ------------------------------------------------------------------ the case
program='' ranks='' only_configs='' timeout_s=60 args='' expect=success want_status='' outputs='' mca='' openmpi_mca=''
# read_settings FILE: one directive per line, words separated by blanks; '#' starts a comment
# line.
read_settings() {
  _file=$1 _line_no=0
  bad() { die "$_file:$_line_no: $*"; }
  while IFS= read -r _line || [ -n "$_line" ]; do
    _line_no=$((_line_no + 1))
    # shellcheck disable=SC2086
    set -- $_line
    [ $# -eq 0 ] && continue
    case $1 in
      \#*) continue ;;
      program) [ $# -eq 2 ] || bad "expected 'program NAME'"; program=$2 ;;
      ranks) [ $# -eq 2 ] || bad "expected 'ranks N'"; ranks=$2 ;;
      timeout) [ $# -eq 2 ] || bad "expected 'timeout SECONDS'"; timeout_s=$2 ;;
      configs) shift; only_configs=" $* " ;;
      args) shift; args=$* ;;
      expect)
        case ${2:-} in
          success|failure) expect=$2 ;;
          status) [ $# -eq 3 ] || bad "expected 'expect status N'"; expect=status want_status=$3 ;;
          *) bad "expected 'expect success', 'expect failure' or 'expect status N'" ;;
        esac ;;
      output) shift; outputs="$outputs$*
" ;;
      mca) [ $# -eq 3 ] || bad "expected 'mca NAME VALUE'"; mca="$mca --mca $2 $3" ;;
      openmpi-mca) [ $# -eq 3 ] || bad "expected 'openmpi-mca NAME VALUE'"; openmpi_mca="$openmpi_mca --mca $2 $3" ;;
      *) bad "unknown directive '$1' (valid: program, ranks, timeout, configs, args, expect, output, mca, openmpi-mca)" ;;
    esac
  done <"$_file"
}
read_settings "$case_file"
case ${only_configs:- $config } in
  *" $config "*) ;;
  *) echo "SKIP: $case_name ($config, $impl): the case runs in configuration(s)$only_configs only"; exit 77 ;;
esac
read_settings "$config_file"
mca="$mca$extra_mca"
if [ -z "$program" ] || [ -z "$ranks" ]; then die "$case_file needs 'program' and 'ranks' lines"; fi

# ------------------------------------------------------------------ the program and launcher
# Reference builds: recompiled when the source or a header of tests/mpi is newer than the binary.
newer_header() {
  for _h in "$here"/*.h; do
    [ "$_h" -nt "$1" ] && return 0
  done
  return 1
}
reference_binary() {
  _dir=${PLEXUS_MPI_REF_DIR:-${TMPDIR:-/tmp}/plexus-mpi-ref}/$impl
  _bin=$_dir/$program _src=$here/$program.c
  [ -f "$_src" ] || die "no source $_src"
  mkdir -p "$_dir" || die "cannot create $_dir"
  # shellcheck disable=SC3013 # -nt: dash and bash have it
  if [ ! -x "$_bin" ] || [ "$_src" -nt "$_bin" ] || (set +f; newer_header "$_bin"); then
    case $impl in
      openmpi) _cc="mpicc.openmpi" _flags= ;;
      mpich) _cc="mpicc.mpich" _flags=-Wno-stringop-overflow ;; # MPI_STATUSES_IGNORE is (MPI_Status *)1
    esac
    command -v "$_cc" >/dev/null || die "$_cc not found"
    # shellcheck disable=SC2086
    "$_cc" -O2 -g -Wall -Wextra $_flags -o "$_bin.tmp.$$" "$_src" >&2 || die "$_cc failed on $_src"
    mv -f "$_bin.tmp.$$" "$_bin"
  fi
  echo "$_bin"
}

case $impl in
  plexus)
    [ -n "$builddir" ] || die "where is the Plexus build? give --builddir DIR or set PLEXUS_TOP_BUILDDIR"
    prog=$builddir/tests/mpi/$program
    plexrun=$builddir/tools/plexrun/plexrun
    [ -x "$prog" ] || die "$prog is not built (make -C $builddir check, or make $prog)"
    if [ ! -x "$plexrun" ]; then
      echo "SKIP: $plexrun is not built (it needs PMIx)"
      exit 77
    fi
    # A clean slate: no Plexus setting or launcher variable of the caller leaks in.
    for _v in $(env | sed -n -e 's/^\(PLEXUS_MCA_[A-Za-z0-9_]*\)=.*/\1/p' \
      -e 's/^\(PMIX_[A-Za-z0-9_]*\)=.*/\1/p' -e 's/^\(PLEXRUN_[A-Za-z0-9_]*\)=.*/\1/p'); do
      unset "$_v"
    done
    # In an ASan build, libpmix's own leaks are make check's known ones (run by hand too).
    case ${LSAN_OPTIONS:-} in
      *suppressions=*) ;;
      *) LSAN_OPTIONS="suppressions=$here/../lib/lsan-libpmix.supp:print_suppressions=0${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
         export LSAN_OPTIONS ;;
    esac
    outer=$((timeout_s + 30))
    # shellcheck disable=SC2086
    set -- "$plexrun" -n "$ranks" --timeout "$timeout_s" $mca "$prog" $args ;;
  openmpi)
    prog=$(reference_binary) || exit 99
    outer=$timeout_s
    # shellcheck disable=SC2086
    set -- mpirun.openmpi --allow-run-as-root --oversubscribe $openmpi_mca -n "$ranks" "$prog" $args ;;
  mpich)
    prog=$(reference_binary) || exit 99
    outer=$timeout_s
    # shellcheck disable=SC2086
    set -- mpirun.mpich -n "$ranks" "$prog" $args ;;
esac

# ------------------------------------------------------------------ run
out=$(mktemp "${TMPDIR:-/tmp}/plexus-mpi-case.XXXXXX") || exit 99
err=$out.err
trap 'rm -f "$out" "$err"' EXIT
if [ "$impl" = plexus ]; then
  # Each case its own plexrun rendezvous: cases run in parallel under make -j, and a published
  # name or a port of one must never reach another's job.
  XDG_RUNTIME_DIR=$out.run
  mkdir -m 0700 "$XDG_RUNTIME_DIR" || exit 99
  export XDG_RUNTIME_DIR
  trap 'rm -f "$out" "$err"; rm -rf "$XDG_RUNTIME_DIR"' EXIT
fi
echo "case $case_name: $program on $ranks ranks, configuration $config, $impl"
echo "\$ $*"
start=$(date +%s.%N)
status=0
timeout -k 10 "$outer" "$@" >"$out" 2>"$err" </dev/null || status=$?
took=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
echo "exit status $status after $took s"
for _stream in stdout stderr; do
  _f=$out
  [ $_stream = stderr ] && _f=$err
  [ -s "$_f" ] || continue
  echo "--- $_stream:"
  head -n 200 "$_f"
  _lines=$(wc -l <"$_f")
  [ "$_lines" -le 200 ] || echo "... ($((_lines - 200)) more lines)"
done

# ------------------------------------------------------------------ judge
why=
because() { why="$why${why:+; }$*"; }
# timeout(1) says 124, or 137 when it had to kill; a rank SIGKILLed inside the time limit makes
# plexrun return 137 too, so 137 only counts as a timeout once the limit has passed.
timed_out=no
case $status in
  124) timed_out=yes ;;
  137) awk -v t="$took" -v o="$outer" 'BEGIN { exit !(t >= o) }' && timed_out=yes ;;
esac
case $timed_out in
  yes) because "timed out: no result within $timeout_s s" ;;
  *)
    case $expect in
      success)
        [ "$status" -eq 0 ] || because "exit status $status, expected 0"
        grep -q "^$program: PASS: " "$out" || because "no '$program: PASS:' line on stdout" ;;
      failure)
        [ "$status" -ne 0 ] || because "exit status 0, but the job should have failed" ;;
      status)
        [ "$status" -eq "$want_status" ] || because "exit status $status, expected $want_status" ;;
    esac ;;
esac
if [ -n "$outputs" ]; then
  while IFS= read -r _re; do
    [ -n "$_re" ] || continue
    cat "$out" "$err" | grep -Eiq -- "$_re" || because "no output line matches /$_re/ (case-insensitive)"
  done <<EOF
$outputs
EOF
fi
if cat "$out" "$err" | grep -q UNREACHABLE; then
  because "the job went on after the error (UNREACHABLE printed)"
fi
# A misspelt parameter is only a warning to Plexus, but here it means the configuration did not
# apply.
if [ "$impl" = plexus ] && grep -q "is not a known parameter" "$err"; then
  because "Plexus does not know a parameter of this run: $(grep -m1 "is not a known parameter" "$err")"
fi

if [ -z "$why" ]; then
  echo "PASS: $case_name ($config, $impl) in $took s"
  exit 0
fi
echo "FAIL: $case_name ($config, $impl): $why"
exit 1
