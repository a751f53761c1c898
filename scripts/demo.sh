#!/bin/bash
# Builds Plexus and shows it at work: the frameworks and components it finds, why the broken
# ones fail, each parameter's source, and a selection dry run with a user's --mca choices.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
jobs=${PLEXUS_JOBS:-$(nproc)}
"$top/scripts/install-deps.sh"
build="$top/build/main"
if [ ! -x "$build/tools/plexus_info/plexus_info" ]; then
  (cd "$top" && ./autogen.sh >/dev/null 2>&1)
  mkdir -p "$build" && (cd "$build" && "$top/configure" --prefix="$build/_inst" >/dev/null)
fi
make -C "$build" -j"$jobs" >/dev/null
make -C "$build" -j"$jobs" check TESTS= >/dev/null   # builds the test components
info="$build/tools/plexus_info/plexus_info"
export PLEXUS_MCA_component_path="$build/tests/plugins/.libs:$build/tests/plugins/broken/.libs"
show() { echo; echo "\$ $*"; status=0; "$@" || status=$?; [ "$status" -eq 0 ] || echo "(exit status $status)"; }
show "$info"
show "$info" --show-failed
show env PLEXUS_MCA_btl_good_query_priority=45 "$info" --param btl good --level 9 --mca btl_good_usable yes
show "$info" --select btl --mca btl_other_priority 95
show env PLEXUS_MCA_btl=bogus "$info" --select btl
show env PLEXUS_MCA_btl_good_query_prority=5 "$info" --select dpm

# The runtime: plexrun starts ranks that exchange business cards through the PMIx modex, one
# spawns two more ranks in a new namespace, and a rank that aborts ends the job cleanly.
plexrun="$build/tools/plexrun/plexrun"
if [ -x "$plexrun" ]; then
  show "$plexrun" -n 4 --tag-output "$build/tests/runtime/card_exchange"
  show "$plexrun" -n 2 --tag-output "$build/tests/runtime/card_exchange" --spawn
  show "$plexrun" -n 3 "$build/tests/runtime/card_exchange" --abort
fi
