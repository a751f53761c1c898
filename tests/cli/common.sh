# Shared by the command-line tests: where things are, a private HOME, the test components'
# path; the checks are tests/lib/checks.sh's.
. "${PLEXUS_TOP_SRCDIR:?run through make check}/tests/lib/checks.sh"
: "${PLEXUS_TOP_BUILDDIR:?run through make check}"
info="$PLEXUS_TOP_BUILDDIR/tools/plexus_info/plexus_info"
good_dir="$PLEXUS_TOP_BUILDDIR/tests/plugins/.libs"
broken_dir="$PLEXUS_TOP_BUILDDIR/tests/plugins/broken/.libs"
# No setting from the caller's home leaks into a test either.
export HOME="$work/home"
mkdir -p "$HOME"
export PLEXUS_MCA_component_path="$good_dir"
