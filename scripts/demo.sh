#!/bin/bash
# Builds Plexus and shows it at work: first the main demo, a ray tracer whose master spawns its
# workers, grows the crew mid-render and merges everyone for the final statistics
# (examples/render); then MPI programs compiled with its mpicc and run with its
# mpirun over the shared-memory BTL, then the frameworks and components it finds, why the broken
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
make -C "$build" -j"$jobs" demo-programs >/dev/null   # the test components and card_exchange
show() { echo; echo "\$ $*"; status=0; "$@" || status=$?; [ "$status" -eq 0 ] || echo "(exit status $status)"; }
plexrun="$build/tools/plexrun/plexrun"

# The main demo (issue 19): one master process spawns 3 workers (MPI_Comm_spawn), hands out tiles
# on demand, spawns 2 more after 30 % of the tiles (they join the same queue), merges everyone
# (MPI_Intercomm_merge) for the final reduction, prints per-worker tile counts and the spawn
# times, checks the image against a single-process render byte for byte and writes the PNG.
if [ -x "$plexrun" ] && [ -x "$build/examples/render/render" ]; then
  show "$plexrun" -n 1 "$build/examples/render/render" --workers 3 --grow 2 --check \
    --output "$build/render.png"
fi

# MPI: compile the examples with the build tree's mpicc, run them with plexrun (installed as
# mpirun), with the default components, with shared memory's fast boxes and single copy off, and
# the collectives with the component serving each one shown.
if [ -x "$plexrun" ]; then
  demo=$(mktemp -d)
  trap 'rm -rf "$demo"' EXIT
  show "$build/tools/mpicc/mpicc-build-tree" -O2 -o "$demo/ring" "$top/examples/mpi/ring.c"
  show "$build/tools/mpicc/mpicc-build-tree" -O2 -o "$demo/hello" "$top/examples/mpi/hello.c"
  show "$build/tools/mpicc/mpicc-build-tree" -O2 -o "$demo/pi" "$top/examples/mpi/pi.c"
  show "$plexrun" -n 4 "$demo/hello"
  show "$plexrun" -n 4 "$demo/ring"
  show "$plexrun" -n 6 "$demo/pi"
  show "$plexrun" -n 2 --mca coll_base_verbose 1 --mca coll_basic_bcast_algorithm scatter_allgather "$demo/pi" 1000000
  show "$plexrun" -n 2 --mca btl self,sm --mca btl_sm_fastbox_max 0 --mca btl_sm_single_copy none "$demo/ring"
  show "$plexrun" -n 2 --mca btl self "$demo/ring"
fi

info="$build/tools/plexus_info/plexus_info"
show "$info" --param btl sm --level 5
export PLEXUS_MCA_component_path="$build/tests/plugins/.libs:$build/tests/plugins/broken/.libs"
show "$info"
show "$info" --show-failed
show env PLEXUS_MCA_btl_good_query_priority=45 "$info" --param btl good --level 9 --mca btl_good_usable yes
show "$info" --select btl --mca btl_other_priority 95
show env PLEXUS_MCA_btl=bogus "$info" --select btl
show env PLEXUS_MCA_btl_good_query_prority=5 "$info" --select dpm

# The runtime: plexrun starts ranks that exchange business cards through the PMIx modex, one
# spawns two more ranks in a new namespace, and a rank that aborts ends the job cleanly.
if [ -x "$plexrun" ]; then
  show "$plexrun" -n 4 --tag-output "$build/tests/runtime/card_exchange"
  show "$plexrun" -n 2 --tag-output "$build/tests/runtime/card_exchange" --spawn
  show "$plexrun" -n 3 "$build/tests/runtime/card_exchange" --abort
fi
