#!/bin/sh
# tests/mpi/dpm_across.sh over btl self,tcp alone: connect/accept between two plexruns of this
# user with dpm_ud and with dpm_pmix, every process of one job connecting to every process of the
# other over loopback TCP, proving the secret the two groups' meeting agreed (two jobs never
# share their job secrets). Nothing stays in the runtime directory or in TMPDIR.
. "${PLEXUS_TOP_SRCDIR:?run through make check}/tests/lib/checks.sh"
: "${PLEXUS_TOP_BUILDDIR:?run through make check}"
plexrun="$PLEXUS_TOP_BUILDDIR/tools/plexrun/plexrun"
prog="$PLEXUS_TOP_BUILDDIR/tests/mpi/dpm_across"
[ -x "$plexrun" ] || { echo "SKIP: no plexrun (Plexus was built without PMIx)"; exit 77; }
export TMPDIR="$work/tmp" XDG_RUNTIME_DIR="$work/run"
mkdir -p "$TMPDIR" && mkdir -p -m 0700 "$XDG_RUNTIME_DIR"

for dpm in ud pmix; do
    svc="plexus-test-tcp-across-$$-$dpm"
    mca="--mca btl self,tcp --mca dpm $dpm"
    # shellcheck disable=SC2086
    "$plexrun" -n 2 --timeout 60 $mca "$prog" serve "$svc" >"$work/serve.out" 2>"$work/serve.err" </dev/null &
    serve=$!
    # shellcheck disable=SC2086
    run -t 70 "connect-$dpm" "$plexrun" -n 3 --timeout 60 $mca "$prog" connect "$svc"
    expect_status 0
    expect_line "$out" "dpm_across: PASS: 3 ranks: connect: 8 B, 64 KiB, 4 MiB with every process of the other plexrun's job"
    sstatus=0
    wait $serve || sstatus=$?
    [ "$sstatus" -eq 0 ] || { fail "serve ($dpm): exit status $sstatus"; cat "$work/serve.out" "$work/serve.err"; }
    expect_line "$work/serve.out" "dpm_across: PASS: 2 ranks: serve: 8 B, 64 KiB, 4 MiB with every process of the other plexrun's job"
done
[ -z "$(ls -A "$XDG_RUNTIME_DIR")" ] || fail "left in the runtime directory: $(ls -A "$XDG_RUNTIME_DIR")"
[ -z "$(ls -A "$TMPDIR")" ] || fail "left in TMPDIR: $(ls -A "$TMPDIR")"
finish
