#!/bin/sh
# Run by scripts/check.sh on the build configured with --enable-mca-static=btl-good,dpm-good
# --enable-mca-no-build=coll-good --disable-boost-dll: the static components are found through
# the same repository as plugins, the skipped one is gone, and the summary said so.
set -u
build=${PLEXUS_TOP_BUILDDIR:?}
info="$build/tools/plexus_info/plexus_info"
for v in $(env | sed -n 's/^\(PLEXUS_MCA_[A-Za-z0-9_]*\)=.*/\1/p'); do unset "$v"; done
export HOME=$(mktemp -d)
trap 'rm -rf "$HOME"' EXIT
failures=0
check() {
  if "$@" >/dev/null 2>&1; then echo "PASS: static: $desc"; else echo "FAIL: static: $desc"; failures=$((failures + 1)); fi
}
out=$("$info" 2>&1)
desc="btl_good is listed as linked into libplexus"
check sh -c 'echo "$0" | grep -A1 "good        1.0.0   usable" | grep -qF "from static (linked into libplexus)"' "$out"
desc="the static dpm component is selected without any component path"
check sh -c "'$info' --select dpm | grep -qx 'Result: good'"
desc="static components register their parameters"
check sh -c "'$info' --param btl good --level 9 | grep -qF 'btl_good_query_priority = 30'"
desc="a component left out by --enable-mca-no-build is not there"
check sh -c "'$info' --select coll | grep -qx 'Result: nothing selected'"
desc="configure's summary says why it was not built"
check grep -q "coll_good .*not built: --enable-mca-no-build" "$build/config-summary.txt"
desc="a loader this build lacks is refused, naming the accepted ones"
check sh -c "'$info' --mca mca_base_loader boost 2>&1 | grep -F mca_base_loader | grep -qF ltdl"
[ "$failures" -eq 0 ]
