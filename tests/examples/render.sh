#!/bin/sh
# The main demo (examples/render) under plexrun at a small size: the master spawns workers, grows
# mid-render, merges everyone for the final reduction, and --check compares the image with a
# single-process render byte for byte (pixels, ray count, the PNG file). Skipped, with the
# reason, while Plexus cannot spawn (no MPI_Comm_spawn in libmpi yet, or no dpm component).
set -u
. "$PLEXUS_TOP_SRCDIR/tests/lib/checks.sh"
build=$PLEXUS_TOP_BUILDDIR
plexrun=$build/tools/plexrun/plexrun
render=$build/examples/render/render
[ -x "$plexrun" ] || { echo "SKIP: $plexrun is not built (it needs PMIx)"; exit 77; }
if [ ! -x "$render" ]; then
  # Not in the build yet: build it here to learn why.
  render=$work/render
  src=$PLEXUS_TOP_SRCDIR/examples/render
  if ! "$build/tools/mpicc/mpicc-build-tree" -O2 -o "$render" "$src"/*.c -lm >"$work/cc.log" 2>&1; then
    if grep -q "undefined reference to .MPI_Comm_spawn" "$work/cc.log"; then
      echo "SKIP: libmpi has no MPI_Comm_spawn yet (issue 19): the demo cannot be built"; exit 77
    fi
    echo "FAIL: examples/render does not build:"; cat "$work/cc.log"; exit 1
  fi
fi

# rows SUM: the per-worker table's rows ("worker wave tiles rays busy"): how many, and the tiles.
rows() { awk '$1 ~ /^[0-9]+$/ && $2 ~ /^[12]$/ && $NF == "s" { n++; t += $3 } END { print n + 0, t + 0 }' "$out"; }

# 96x64 in 16-pixel tiles: 24 tiles; one ray per pixel, so a run takes well under a second of CPU.
small="--size 96x64 --tile 16 --samples 1 --depth 3 --timeout 90 --check"

run -t 150 grow "$plexrun" -n 1 --timeout 120 "$render" --workers 2 --grow 1 --grow-at 0.25 \
  $small --output "$work/grow.png"
if grep -q "MPI_Comm_spawn of .* failed" "$err" && grep -qi "unsupported\|no dpm\|not available" "$err"; then
  echo "SKIP: MPI_Comm_spawn exists but cannot spawn here yet:"; cat "$err"; exit 77
fi
expect_status 0
expect_line "check: identical"
expect_contains "spawned 2 workers in"
expect_contains "grew after"
expect_contains "spawned 1 more workers in"
expect_contains "reduced over the merged communicator of 4 processes (MPI_Intercomm_merge): 24 tiles"
expect_line "image: $work/grow.png"
[ "$(rows)" = "3 24" ] || { fail "grow: per-worker rows and tiles '$(rows)', expected '3 24'"; show; }

run -t 150 plain "$plexrun" -n 1 --timeout 120 "$render" --workers 3 $small --output "$work/plain.png"
expect_status 0
expect_line "check: identical"
expect_contains "reduced over the merged communicator of 4 processes (MPI_Intercomm_merge): 24 tiles"
expect_not_contains "grew after"
[ "$(rows)" = "3 24" ] || { fail "plain: per-worker rows and tiles '$(rows)', expected '3 24'"; show; }
# The same scene and size, however it was cut up: the same file.
check "the grown and the plain render wrote identical PNGs" cmp "$work/grow.png" "$work/plain.png"

# No hang, ever: a deadline far too short for a big image ends the job, saying what was awaited.
run -t 90 deadline "$plexrun" -n 1 --timeout 60 "$render" --workers 1 --size 4000x4000 --samples 4 \
  --timeout 1 --output "$work/never.png"
[ "$status" -ne 0 ] || { fail "deadline: exit status 0, expected the watchdog's failure"; show; }
expect_contains "gave up after 1 s waiting for"
check "the job that gave up wrote no image" test ! -e "$work/never.png"

# Bad input: named, status 2, nothing spawned.
run -t 60 bad_workers "$plexrun" -n 1 "$render" --workers -1
expect_status 2
expect_contains "render: --workers: '-1' is out of range 0..1024"
run -t 60 bad_size "$plexrun" -n 1 "$render" --size 64by48
expect_status 2
expect_contains "render: --size: '64by48' is not WIDTHxHEIGHT"
run -t 60 bad_grow "$plexrun" -n 1 "$render" --workers 0 --grow 2
expect_status 2
expect_contains "render: --grow 2 needs --workers of at least 1"
run -t 60 two_masters "$plexrun" -n 2 "$render" --workers 1
expect_status 2
expect_contains "the master runs as one process"
finish
