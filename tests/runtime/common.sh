# Shared by the runtime tests: where things are and the sanitizer settings; the clean
# environment and the checks are tests/lib/checks.sh's.
. "${PLEXUS_TOP_SRCDIR:?run through make check}/tests/lib/checks.sh"
: "${PLEXUS_TOP_BUILDDIR:?run through make check}"
prog="$PLEXUS_TOP_BUILDDIR/tests/runtime/card_exchange"
plexrun="$PLEXUS_TOP_BUILDDIR/tools/plexrun/plexrun"

# Sanitized builds: libpmix's own leaks are not ours (the ranks inherit this through plexrun).
LSAN_OPTIONS="suppressions=$PLEXUS_TOP_SRCDIR/tests/runtime/lsan.supp${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
export LSAN_OPTIONS
