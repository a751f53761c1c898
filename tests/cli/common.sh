# Shared by the command-line tests: where things are, and assertions that say what was expected.
set -u
: "${PLEXUS_TOP_BUILDDIR:?run through make check}"
info="$PLEXUS_TOP_BUILDDIR/tools/plexus_info/plexus_info"
good_dir="$PLEXUS_TOP_BUILDDIR/tests/plugins/.libs"
broken_dir="$PLEXUS_TOP_BUILDDIR/tests/plugins/broken/.libs"
work=$(mktemp -d "${TMPDIR:-/tmp}/plexus-cli.XXXXXX")
trap 'rm -rf "$work"' EXIT
# A clean slate: no setting from the caller's environment or home leaks into a test.
for v in $(env | sed -n 's/^\(PLEXUS_MCA_[A-Za-z0-9_]*\)=.*/\1/p'); do unset "$v"; done
export HOME="$work/home"
mkdir -p "$HOME"
export PLEXUS_MCA_component_path="$good_dir"

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
expect_status() {
  if [ "$status" -ne "$1" ]; then
    echo "FAIL: expected exit status $1, got $status from: $(head -c 2000 "$out")"
    failures=$((failures + 1))
  fi
}
expect_contains() {
  if ! grep -qF -- "$1" "$out"; then
    echo "FAIL: output lacks '$1'; output was:"; sed 's/^/  | /' "$out" | head -60
    failures=$((failures + 1))
  fi
}
expect_not_contains() {
  if grep -qF -- "$1" "$out"; then
    echo "FAIL: output should not contain '$1'"; sed 's/^/  | /' "$out" | head -60
    failures=$((failures + 1))
  fi
}
finish() {
  if [ "$failures" -ne 0 ]; then echo "$failures check(s) failed"; exit 1; fi
  echo "all checks passed"
  exit 0
}
