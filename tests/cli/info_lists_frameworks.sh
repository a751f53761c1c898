#!/bin/sh
# plexus_info lists the five frameworks and the good test components with version and origin.
. "$(dirname "$0")/common.sh"
set -e
run list "$info"
expect_status 0
expect_contains "btl (interface 1.1"   # 1.1: the data path
expect_contains "coll (interface 1.1"  # 1.1: modules and services
for fw in osc dpm reconf; do expect_contains "$fw (interface 1.0"; done
expect_contains "basic       1.0.0   usable"
expect_contains "good        1.0.0   usable"
expect_contains "from $good_dir/plexus_btl_good.so"
expect_contains "nodev       1.0.0   unusable: no plexus-test device present"
run json "$info" --json
expect_status 0
expect_contains '"origin": "'"$good_dir"'/plexus_reconf_good.so"'
finish
