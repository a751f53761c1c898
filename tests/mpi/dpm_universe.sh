#!/bin/sh
# A spawn beyond the universe (issue 19, "Bad input"): under plexrun --universe-size 4, a job of
# 2 ranks asks for 3 children: MPI_ERR_SPAWN at both parents with every errcode set and a
# message naming MPI_UNIVERSE_SIZE, plexrun's line saying who was refused; the job goes on and
# spawns exactly the 2 free slots. Nothing stays in TMPDIR or the runtime directory.
. "${PLEXUS_TOP_SRCDIR:?run through make check}/tests/lib/checks.sh"
: "${PLEXUS_TOP_BUILDDIR:?run through make check}"
plexrun="$PLEXUS_TOP_BUILDDIR/tools/plexrun/plexrun"
prog="$PLEXUS_TOP_BUILDDIR/tests/mpi/dpm_spawn"
[ -x "$plexrun" ] || { echo "SKIP: no plexrun (Plexus was built without PMIx)"; exit 77; }
export TMPDIR="$work/tmp" XDG_RUNTIME_DIR="$work/run"
mkdir -p "$TMPDIR" && mkdir -p -m 0700 "$XDG_RUNTIME_DIR"

run -t 90 universe "$plexrun" -n 2 --universe-size 4 --timeout 80 "$prog" universe
expect_status 0
expect_line "$out" "dpm_spawn: PASS: 2 ranks: universe "
expect_contains "$err" "refused: 2 of the universe's 4 slots (--universe-size) are taken"
[ -z "$(ls -A "$XDG_RUNTIME_DIR")" ] || fail "left in the runtime directory: $(ls -A "$XDG_RUNTIME_DIR")"
[ -z "$(ls -A "$TMPDIR")" ] || fail "left in TMPDIR: $(ls -A "$TMPDIR")"
finish
