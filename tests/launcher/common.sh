# Shared by the launcher tests: plexrun, the PMIx test client, a private TMPDIR (plexrun's job
# directories go there and must not stay), and checks that a job left nothing behind; the
# clean environment, run and the other checks are tests/lib/checks.sh's.
. "${PLEXUS_TOP_SRCDIR:?run through make check}/tests/lib/checks.sh"
: "${PLEXUS_TOP_BUILDDIR:?run through make check}"
plexrun="$PLEXUS_TOP_BUILDDIR/tools/plexrun/plexrun"
client="$PLEXUS_TOP_BUILDDIR/tests/launcher/pmix_test_client"
export TMPDIR="$work/tmp"
mkdir -p "$TMPDIR"
# plexrun's rendezvous with other plexruns (its socket and key) goes here, where only this
# test's plexruns meet and where nothing may stay.
export XDG_RUNTIME_DIR="$work/run"
mkdir -p -m 0700 "$XDG_RUNTIME_DIR"

# The job left nothing: no job directory in TMPDIR, no rendezvous file, no /dev/shm object with PREFIX (if given),
# and no process among the pids the clients wrote into DIR (if given).
expect_clean() {
  prefix=${1:-} piddir=${2:-}
  if [ -n "$(ls -A "$TMPDIR")" ]; then fail "$name: left in TMPDIR: $(ls -A "$TMPDIR")"; rm -rf "${TMPDIR:?}"/*; fi
  if [ -n "$(ls -A "$XDG_RUNTIME_DIR")" ]; then
    fail "$name: left in the runtime directory: $(ls -A "$XDG_RUNTIME_DIR")"; rm -f "${XDG_RUNTIME_DIR:?}"/*
  fi
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

