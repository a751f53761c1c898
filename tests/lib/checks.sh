# Shared by the shell tests (sourced, POSIX sh): a private work directory, a clean environment,
# and checks that say what was expected. A failing check is counted and reported, never ends the
# script; finish reports the count. Works with and without set -e.
#
#   run [-t SECONDS] NAME CMD...  runs CMD with stdin from /dev/null (for at most SECONDS, then
#                                 SIGKILL 5 s later); sets $name, $out ($work/NAME.out, its
#                                 stdout), $err ($work/NAME.err, its stderr) and $status.
#   expect_status N               the last run exited with status N.
#   expect_contains [FILE] TEXT   FILE has TEXT somewhere (fixed string);
#   expect_not_contains [FILE] TEXT   ... does not have it;
#   expect_line [FILE] TEXT       ... has a line that is exactly TEXT;
#   expect_count [FILE] N REGEX   ... has exactly N lines matching the extended REGEX.
#                                 Without FILE: the last run's stdout and stderr together.
#   check DESCRIPTION CMD...      one "PASS: DESCRIPTION" or "FAIL: DESCRIPTION" line for
#                                 CMD's exit status (for scripts counted line by line).
#   fail MESSAGE                  counts a failure, printing "FAIL: MESSAGE".
#   show                          prints the last run's stdout and stderr (the start of each).
#   finish                        prints the count and exits 1 if a check failed, else 0.
set -u

work=$(mktemp -d "${TMPDIR:-/tmp}/plexus-$(basename "$0" .sh).XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT

# A clean slate: no setting, launcher variable or PMIx variable of the caller leaks into a test;
# each test says what it runs under.
for _ck_v in $(env | sed -n -e 's/^\(PLEXUS_MCA_[A-Za-z0-9_]*\)=.*/\1/p' \
  -e 's/^\(PMIX_[A-Za-z0-9_]*\)=.*/\1/p' -e 's/^\(PLEXRUN_[A-Za-z0-9_]*\)=.*/\1/p'); do
  unset "$_ck_v"
done

failures=0
name=$(basename "$0" .sh) out=/dev/null err=/dev/null status=

fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

show() {
  echo "  stdout:"; head -c 3000 "$out" | sed 's/^/  | /'
  echo "  stderr:"; head -c 3000 "$err" | sed 's/^/  | /'
}

run() {
  _ck_limit=
  if [ "$1" = -t ]; then _ck_limit=$2; shift 2; fi
  name=$1; shift
  out="$work/$name.out" err="$work/$name.err" status=0
  if [ -n "$_ck_limit" ]; then
    timeout -k 5 "$_ck_limit" "$@" >"$out" 2>"$err" </dev/null || status=$?
  else
    "$@" >"$out" 2>"$err" </dev/null || status=$?
  fi
}

expect_status() {
  [ "$status" -eq "$1" ] || { fail "$name: exit status $status, expected $1"; show; }
}

# _ck_args NARGS ARGS...: with one more argument than NARGS, the first is the FILE; sets
# _ck_files (1: FILE, 2: the last run's stdout and stderr) and _ck_where, and fails on a misuse.
_ck_args() {
  _ck_n=$1; shift
  if [ $# -eq "$_ck_n" ]; then _ck_files=2 _ck_where="the output of $name"
  elif [ $# -eq $((_ck_n + 1)) ]; then _ck_files=1 _ck_file=$1 _ck_where=$(basename "$1")
  else fail "$name: a check got $# arguments, expected $_ck_n or $((_ck_n + 1))"; return 1
  fi
}
# _ck_grep GREP-OPTIONS TEXT: grep's status over the files chosen by _ck_args.
_ck_grep() {
  if [ "$_ck_files" -eq 1 ]; then grep "$1" -- "$2" "$_ck_file"; else grep "$1" -- "$2" "$out" "$err"; fi
}

expect_contains() {
  _ck_args 1 "$@" || return 0
  eval "_ck_text=\${$#}"
  _ck_grep -qF "$_ck_text" || { fail "$name: '$_ck_text' not in $_ck_where"; show; }
}
expect_not_contains() {
  _ck_args 1 "$@" || return 0
  eval "_ck_text=\${$#}"
  _ck_rc=0
  _ck_grep -qF "$_ck_text" || _ck_rc=$?
  case $_ck_rc in
    0) fail "$name: '$_ck_text' should not be in $_ck_where"; show ;;
    1) ;;
    *) fail "$name: cannot read $_ck_where" ;;
  esac
}
expect_line() {
  _ck_args 1 "$@" || return 0
  eval "_ck_text=\${$#}"
  _ck_grep -qxF "$_ck_text" || { fail "$name: no line '$_ck_text' in $_ck_where"; show; }
}
expect_count() {
  _ck_args 2 "$@" || return 0
  [ $# -eq 3 ] && shift
  _ck_want=$1 _ck_re=$2 _ck_got=0
  if [ "$_ck_files" -eq 1 ]; then set -- "$_ck_file"; else set -- "$out" "$err"; fi
  for _ck_f in "$@"; do
    _ck_rc=0
    _ck_c=$(grep -cE -- "$_ck_re" "$_ck_f") || _ck_rc=$?
    if [ "$_ck_rc" -gt 1 ] || [ -z "$_ck_c" ]; then fail "$name: cannot count '$_ck_re' in $_ck_f"; return 0; fi
    _ck_got=$((_ck_got + _ck_c))
  done
  [ "$_ck_got" -eq "$_ck_want" ] ||
    { fail "$name: $_ck_got lines match '$_ck_re' in $_ck_where, expected $_ck_want"; show; }
}

check() {
  _ck_desc=$1; shift
  run check "$@"
  if [ "$status" -eq 0 ]; then echo "PASS: $_ck_desc"; else fail "$_ck_desc"; show; fi
}

finish() {
  if [ "$failures" -ne 0 ]; then echo "$failures check(s) failed"; exit 1; fi
  echo "all checks passed"
  exit 0
}
