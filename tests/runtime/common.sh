# Shared by the runtime tests: where things are, a clean environment, and run/expect helpers.
set -u
: "${PLEXUS_TOP_BUILDDIR:?run through make check}"
prog="$PLEXUS_TOP_BUILDDIR/tests/runtime/card_exchange"
plexrun="$PLEXUS_TOP_BUILDDIR/tools/plexrun/plexrun"
work=$(mktemp -d "${TMPDIR:-/tmp}/plexus-runtime.XXXXXX")
trap 'rm -rf "$work"' EXIT
# No launcher variables or settings from the caller leak in: each test says what it runs under.
for v in $(env | sed -n 's/^\(PLEXUS_MCA_[A-Za-z0-9_]*\|PMIX_[A-Za-z0-9_]*\)=.*/\1/p'); do unset "$v"; done

# Sanitized builds: libpmix's own leaks are not ours (the ranks inherit this through plexrun).
LSAN_OPTIONS="suppressions=$PLEXUS_TOP_SRCDIR/tests/runtime/lsan.supp${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
export LSAN_OPTIONS

failures=0
# run NAME CMD...: runs CMD, keeps stdout+stderr in $work/NAME.out and its status in $status.
run() {
  name=$1; shift
  set +e
  "$@" >"$work/$name.out" 2>&1
  status=$?
  set -e
  out="$work/$name.out"
}
fail() {
  echo "FAIL: $1; output was:"; sed 's/^/  | /' "$out" | head -80
  failures=$((failures + 1))
}
expect_status() { [ "$status" -eq "$1" ] || fail "expected exit status $1, got $status"; }
# expect_count N PATTERN: exactly N output lines match the extended regex PATTERN.
expect_count() {
  n=$(grep -cE -- "$2" "$out" || true)
  [ "$n" -eq "$1" ] || fail "expected $1 lines matching '$2', got $n"
}
expect_none() { ! grep -qE -- "$1" "$out" || fail "output should not match '$1'"; }
finish() {
  if [ "$failures" -ne 0 ]; then echo "$failures check(s) failed"; exit 1; fi
  echo "all checks passed"
}
