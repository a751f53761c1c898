#!/bin/sh
# dpm_pmix's handshake messages nobody will read are taken back (issue 19, "no leftovers"): a spawn of a
# program that never answers (no MPI) and a connect nobody accepts fail after a 1 s
# dpm_base_connect_timeout, and plexrun's publish store is empty when the job ends (its trace
# says how many values were left: before the fix, the parent's first handshake message, the
# connector's request and its first message stayed until the job ended).
. "${PLEXUS_TOP_SRCDIR:?run through make check}/tests/lib/checks.sh"
: "${PLEXUS_TOP_BUILDDIR:?run through make check}"
plexrun="$PLEXUS_TOP_BUILDDIR/tools/plexrun/plexrun"
prog="$PLEXUS_TOP_BUILDDIR/tests/mpi/dpm_ports"
[ -x "$plexrun" ] || { echo "SKIP: no plexrun (Plexus was built without PMIx)"; exit 77; }
export TMPDIR="$work/tmp" XDG_RUNTIME_DIR="$work/run"
mkdir -p "$TMPDIR" && mkdir -p -m 0700 "$XDG_RUNTIME_DIR"

run -t 90 abandoned env PLEXRUN_TRACE=1 "$plexrun" -n 2 --timeout 80 --mca dpm pmix --mca dpm_base_connect_timeout 1000 \
  "$prog" abandoned
expect_status 0
expect_line "$out" "dpm_ports: PASS: 2 ranks: abandoned"
expect_count "$err" 1 'publish store: 0 value\(s\) left at the end$'
[ -z "$(ls -A "$XDG_RUNTIME_DIR")" ] || fail "left in the runtime directory: $(ls -A "$XDG_RUNTIME_DIR")"
[ -z "$(ls -A "$TMPDIR")" ] || fail "left in TMPDIR: $(ls -A "$TMPDIR")"
finish
