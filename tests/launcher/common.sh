# Shared by the launcher tests: plexrun, the PMIx test client, a private TMPDIR (plexrun's job
# directories go there and must not stay), and checks that a job left nothing behind.
# No set -e: a check that fails must be counted and reported, not end the script silently.
set -u
: "${PLEXUS_TOP_BUILDDIR:?run through make check}"
plexrun="$PLEXUS_TOP_BUILDDIR/tools/plexrun/plexrun"
client="$PLEXUS_TOP_BUILDDIR/tests/launcher/pmix_test_client"
work=$(mktemp -d "${TMPDIR:-/tmp}/plexus-launcher.XXXXXX")
trap 'rm -rf "$work"' EXIT
export TMPDIR="$work/tmp"
mkdir -p "$TMPDIR"
# A clean slate: nothing from the caller's environment changes what plexrun or the ranks do.
for v in $(env | sed -n 's/^\(PLEXUS_MCA_[A-Za-z0-9_]*\|PMIX_[A-Za-z0-9_]*\|PLEXRUN_[A-Za-z0-9_]*\)=.*/\1/p'); do
  unset "$v"
done

failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# run NAME SECONDS CMD...: runs CMD for at most SECONDS (then SIGKILL 5 s later), keeps its
# stdout in $out ($work/NAME.out), its stderr in $err, its status in $status.
run() {
  name=$1 limit=$2; shift 2
  out="$work/$name.out" err="$work/$name.err"
  timeout -k 5 "$limit" "$@" >"$out" 2>"$err" </dev/null
  status=$?
}
show() { echo "  stdout:"; head -c 3000 "$out" | sed 's/^/  | /'; echo "  stderr:"; head -c 3000 "$err" | sed 's/^/  | /'; }
expect_status() {
  if [ "$status" -ne "$1" ]; then fail "$name: exit status $status, expected $1"; show; fi
}
# expect_line FILE TEXT: FILE has a line that is exactly TEXT.
expect_line() {
  if ! grep -qxF -- "$2" "$1"; then fail "$name: no line '$2' in $(basename "$1")"; show; fi
}
expect_contains() {
  if ! grep -qF -- "$2" "$1"; then fail "$name: '$2' not in $(basename "$1")"; show; fi
}
# expect_count FILE N PATTERN: N lines of FILE match the extended regex PATTERN.
expect_count() {
  got=$(grep -cE -- "$3" "$1")
  rc=$?
  if [ "$rc" -gt 1 ] || [ -z "$got" ]; then fail "$name: cannot count '$3'"; return; fi
  if [ "$got" -ne "$2" ]; then fail "$name: $got lines match '$3' in $(basename "$1"), expected $2"; show; fi
}

# The job left nothing: no job directory in TMPDIR, no /dev/shm object with PREFIX (if given),
# and no process among the pids the clients wrote into DIR (if given).
expect_clean() {
  prefix=${1:-} piddir=${2:-}
  if [ -n "$(ls -A "$TMPDIR")" ]; then fail "$name: left in TMPDIR: $(ls -A "$TMPDIR")"; rm -rf "${TMPDIR:?}"/*; fi
  if [ -n "$prefix" ] && ls /dev/shm/"$prefix"* >/dev/null 2>&1; then
    fail "$name: left in /dev/shm: $(ls /dev/shm/"$prefix"*)"
    rm -f /dev/shm/"$prefix"*
  fi
  if [ -n "$piddir" ]; then
    for f in "$piddir"/pid.*; do
      [ -e "$f" ] || continue
      pid=$(cat "$f")
      if kill -0 "$pid" 2>/dev/null && grep -q pmix_test_client "/proc/$pid/cmdline" 2>/dev/null; then
        fail "$name: rank process $pid ($f) still alive"; kill -9 "$pid"
      fi
    done
  fi
}
# The shm prefix of a job, from the segment names its ranks printed ("segment /plexus-...-test-r0").
shm_prefix_in() { sed -n 's|.*segment /\(plexus-[0-9a-f]\{16\}-\).*|\1|p' "$1" | head -1; }

finish() {
  if [ "$failures" -ne 0 ]; then echo "$failures check(s) failed"; exit 1; fi
  echo "all checks passed"
  exit 0
}
