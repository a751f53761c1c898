#!/bin/sh
# Parameters as users meet them: each value's source, a typo'd name gets the closest name,
# a bad value names the parameter, the value and what is accepted.
. "$(dirname "$0")/common.sh"
set -e
mkdir -p "$HOME/.plexus"
echo "btl_good_query_priority = 40" >"$HOME/.plexus/mca-params.conf"
PLEXUS_MCA_btl_other_query_priority=41 run sources "$info" --param btl all --level 9 --mca btl_nodev_query_priority 42
expect_status 0
expect_contains "btl_good_query_priority = 40"
expect_contains "source: user file ($HOME/.plexus/mca-params.conf:1)"
expect_contains "btl_other_query_priority = 41"
expect_contains "source: environment (env PLEXUS_MCA_btl_other_query_priority)"
expect_contains "btl_nodev_query_priority = 42"
expect_contains "source: command line (cli)"
expect_contains "btl_base_verbose = 0"
run hidden "$info" --param btl all --level 1
expect_contains "more parameter(s) above level 1"

PLEXUS_MCA_btl_good_query_prority=5 run typo "$info"
expect_status 0
expect_contains "'btl_good_query_prority' (env PLEXUS_MCA_btl_good_query_prority) is not a known parameter; did you mean 'btl_good_query_priority'?"

PLEXUS_MCA_btl_good_query_priority=lots run bad "$info"
expect_status 1
expect_contains "btl_good_query_priority"
expect_contains "'lots'"
expect_contains "from 0 to 100"

PLEXUS_MCA_mca_base_loader=dlopen run badenum "$info"
expect_status 1
expect_contains "mca_base_loader"
expect_contains "ltdl"
finish
