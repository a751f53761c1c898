# Sourced by the tests of connect/accept between two plexruns of this user (dpm_across.sh,
# dpm_ud_across.sh, dpm_tcp_across.sh): one job (2 ranks) opens a port, publishes it and accepts;
# another plexrun's job (3 ranks) looks the name up and connects; both exchange 8 B, 64 KiB and
# 4 MiB with every remote process, then disconnect. Each test's own comment says what it varies.
. "${PLEXUS_TOP_SRCDIR:?run through make check}/tests/lib/checks.sh"
: "${PLEXUS_TOP_BUILDDIR:?run through make check}"
plexrun="$PLEXUS_TOP_BUILDDIR/tools/plexrun/plexrun"
prog="$PLEXUS_TOP_BUILDDIR/tests/mpi/dpm_across"
[ -x "$plexrun" ] || { echo "SKIP: no plexrun (Plexus was built without PMIx)"; exit 77; }
export TMPDIR="$work/tmp" XDG_RUNTIME_DIR="$work/run"
mkdir -p "$TMPDIR" && mkdir -p -m 0700 "$XDG_RUNTIME_DIR"

# across_pair LABEL SERVICE [MCA ARGUMENTS...]: the serving and the connecting plexrun, both
# checked for their PASS lines and exit status.
across_pair() {
    label=$1 svc=$2
    shift 2
    "$plexrun" -n 2 --timeout 60 "$@" "$prog" serve "$svc" >"$work/serve.out" 2>"$work/serve.err" </dev/null &
    serve=$!
    run -t 70 "connect$label" "$plexrun" -n 3 --timeout 60 "$@" "$prog" connect "$svc"
    expect_status 0
    expect_line "$out" "dpm_across: PASS: 3 ranks: connect: 8 B, 64 KiB, 4 MiB with every process of the other plexrun's job"
    sstatus=0
    wait $serve || sstatus=$?
    [ "$sstatus" -eq 0 ] || { fail "serve$label: exit status $sstatus"; cat "$work/serve.out" "$work/serve.err"; }
    expect_line "$work/serve.out" "dpm_across: PASS: 2 ranks: serve: 8 B, 64 KiB, 4 MiB with every process of the other plexrun's job"
}

# Nothing stays in the runtime directory where the plexruns met, or in TMPDIR.
across_no_leftovers() {
    [ -z "$(ls -A "$XDG_RUNTIME_DIR")" ] || fail "left in the runtime directory: $(ls -A "$XDG_RUNTIME_DIR")"
    [ -z "$(ls -A "$TMPDIR")" ] || fail "left in TMPDIR: $(ls -A "$TMPDIR")"
}
