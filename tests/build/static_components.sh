#!/bin/sh
# Run by scripts/check.sh on the build configured with --enable-mca-static=btl-good,dpm-good
# --enable-mca-no-build=coll-good,... --disable-boost-dll (only plexus_info and the plugins it
# needs are built): the static components are found through the same repository as plugins, the
# skipped ones are gone, and the summary said so.
. "$(dirname "$0")/../lib/checks.sh"
build=${PLEXUS_TOP_BUILDDIR:?}
info="$build/tools/plexus_info/plexus_info"
export HOME="$work/home"
mkdir -p "$HOME"
listing=$("$info" 2>&1)
check "static: btl_good is listed as linked into libplexus" \
  sh -c 'echo "$0" | grep -A1 "good        1.0.0   usable" | grep -qF "from static (linked into libplexus)"' "$listing"
# (dpm ^pmix,ud: where the real dpm_pmix and dpm_ud are built, they outrank the test component)
check "static: the static dpm component is selected without any component path" \
  sh -c "'$info' --select dpm --mca dpm ^pmix,ud | grep -qx 'Result: good'"
check "static: static components register their parameters" \
  sh -c "'$info' --param btl good --level 9 | grep -qF 'btl_good_query_priority = 30'"
check "static: a component left out by --enable-mca-no-build is not there (coll_basic serves, coll_good is absent)" \
  sh -c "'$info' --select coll | grep -Eqx 'Result:( [a-z_]+)* basic' && ! '$info' --select coll | grep -q good"
check "static: configure's summary says why it was not built" \
  grep -q "coll_good .*not built: --enable-mca-no-build" "$build/config-summary.txt"
check "static: a loader this build lacks is refused, naming the accepted ones" \
  sh -c "'$info' --mca mca_base_loader boost 2>&1 | grep -F mca_base_loader | grep -qF ltdl"
finish
