# Shared by the runtime tests: where things are; the clean environment and the checks are
# tests/lib/checks.sh's, the sanitizer settings make check's.
. "${PLEXUS_TOP_SRCDIR:?run through make check}/tests/lib/checks.sh"
: "${PLEXUS_TOP_BUILDDIR:?run through make check}"
prog="$PLEXUS_TOP_BUILDDIR/tests/runtime/card_exchange"
plexrun="$PLEXUS_TOP_BUILDDIR/tools/plexrun/plexrun"

