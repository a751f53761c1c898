#!/bin/sh
# Each deliberately broken plugin is named with its own specific cause, by both loaders.
. "$(dirname "$0")/common.sh"
set -e
export PLEXUS_MCA_component_path="$good_dir:$broken_dir"
for loader in ltdl boost; do
  run failed_$loader "$info" --show-failed --mca mca_base_loader $loader
  expect_status 0
  expect_contains "$broken_dir/plexus_btl_undefsym.so"
  expect_contains "undefined symbol: plexus_test_symbol_that_does_not_exist"
  expect_contains "$broken_dir/plexus_btl_abinext.so"
  expect_contains "built for MCA ABI 2."
  expect_contains "$broken_dir/plexus_coll_wrongfw.so"
  expect_contains "framework 'osc'"
  expect_contains "hint:"
done
# The listing points at the failures without drowning the user in them.
run list "$info"
expect_contains "3 component file(s) failed to load: plexus_info --show-failed"
expect_not_contains "undefined symbol"
finish
