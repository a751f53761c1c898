#!/bin/sh
# Ranking: priority from query, ties broken by name, <fw>_<comp>_priority re-ranks, single-select
# frameworks take one, verbose tracing prints every decision.
. "$(dirname "$0")/common.sh"
set -e
# dpm_ud and dpm_pmix, real plugins of the build tree, outrank dpm_good; single-select keeps one.
run tie "$info" --select dpm
expect_contains "good        not selected  priority 20, lower than ud (45)"
expect_contains "pmix        not selected  priority 40, lower than ud (45)"
expect_contains "Result: ud"
run tie_excluded "$info" --select dpm --mca dpm ^pmix,ud
expect_contains "good        selected      priority 20"
run ranked "$info" --select btl
expect_contains "Result: good other"
run rerank "$info" --select btl --mca btl_other_priority 95
expect_contains "Result: other good"
expect_contains "priority 95 (btl_other_priority from cli; query said 30)"
PLEXUS_MCA_btl_good_usable=false run declined "$info" --select btl
expect_contains "declined: btl_good_usable is false"
expect_contains "Result: other"
PLEXUS_MCA_btl_base_verbose=1 run verbose "$info" --select btl
expect_contains "btl: nodev: unusable, no plexus-test device present"
expect_contains "btl: good: selected, priority 30"
run coll "$info" --select coll --comm-size 4
expect_contains "for a communicator of 4 ranks"
finish
