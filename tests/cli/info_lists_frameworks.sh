#!/bin/sh
# plexus_info lists the five frameworks and the good test components with version and origin.
. "$(dirname "$0")/common.sh"
set -e
run list "$info"
expect_status 0
# Each framework at the interface version its header declares.
version_of() {
    FW=$(echo "$1" | tr a-z A-Z)
    h="$PLEXUS_TOP_SRCDIR/framework/include/plexus/$1.h"
    echo "$(sed -n "s/^#define PLEXUS_${FW}_MAJOR \([0-9]*\).*/\1/p" "$h").$(sed -n "s/^#define PLEXUS_${FW}_MINOR \([0-9]*\).*/\1/p" "$h")"
}
for fw in btl coll osc dpm reconf; do expect_contains "$fw (interface $(version_of $fw), "; done
expect_contains "osc (interface $(version_of osc), ranked per object, with fallback, query per window)"
expect_contains "reconf (interface 1.1, zero or one, query per process)"
expect_contains "basic       1.0.0   usable"
expect_contains "good        1.0.0   usable"
expect_contains "from $good_dir/plexus_btl_good.so"
expect_contains "nodev       1.0.0   unusable: no plexus-test device present"
run json "$info" --json
expect_status 0
expect_contains '"origin": "'"$good_dir"'/plexus_reconf_good.so"'
expect_contains '"scope": "communicator"'
finish
