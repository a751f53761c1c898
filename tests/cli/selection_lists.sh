#!/bin/sh
# Include and exclude lists as users write them: a missing excluded name warns, a missing
# requested name is fatal and lists what is available and why the others are not usable.
. "$(dirname "$0")/common.sh"
set -e
PLEXUS_MCA_btl='^bogus' run exclude "$info" --select btl
expect_status 0
expect_contains "warning: btl: btl=^bogus"
expect_contains "there is no btl component named 'bogus'"
expect_contains "Result: good other"

PLEXUS_MCA_btl=bogus run include "$info" --select btl
expect_status 1
expect_contains "error: btl: btl=bogus (env PLEXUS_MCA_btl): there is no btl component named 'bogus'"
expect_contains "Available btl components: good (usable), nodev (unusable: no plexus-test device present"
expect_contains "other (usable)"

PLEXUS_MCA_btl=nodev run unusable "$info" --select btl
expect_status 1
expect_contains "requests btl_nodev, which cannot be used"

PLEXUS_MCA_btl='good,^other' run mixed "$info"
expect_status 1
expect_contains "'^' may only stand once, at the start"

# Failed plugins named in a list are fatal with the loader's cause.
export PLEXUS_MCA_component_path="$good_dir:$broken_dir"
PLEXUS_MCA_btl=undefsym run failed "$info" --select btl
expect_status 1
expect_contains "component btl_undefsym failed to load from $broken_dir/plexus_btl_undefsym.so: "
expect_contains "undefined symbol: plexus_test_symbol_that_does_not_exist"
finish
