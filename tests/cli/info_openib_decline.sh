#!/bin/sh
# Without an RDMA device (no HCA, no RoCE NIC, no Soft-RoCE: this machine), btl_openib loads,
# declines, and says why, in the listing and in a selection dry run (issue 22).
. "$(dirname "$0")/common.sh"
# The build tree's plugin folder beside libplexus (plugins-<MCA ABI major>).
if ! ls "$PLEXUS_TOP_BUILDDIR"/framework/.libs/plexus/plugins-*/plexus_btl_openib.so >/dev/null 2>&1; then
  echo "SKIP: btl_openib is not built here (configure found no rdma-core: see config-summary.txt)"
  exit 77
fi
if [ -n "$(ls /sys/class/infiniband 2>/dev/null)" ]; then
  echo "SKIP: this machine has an RDMA device ($(ls /sys/class/infiniband | tr '\n' ' ')): openib does not decline"
  exit 77
fi
set -e
unset PLEXUS_MCA_component_path  # the real plugins, from the folder beside libplexus
reason='unusable: no RDMA device found \(ibv_get_device_list lists none'
run listing "$info"
expect_status 0
expect_count 1 "^ +openib +1\.0\.0 +$reason"
run select "$info" --select btl
expect_status 0
expect_count 1 "^ +openib +not selected +$reason"
expect_not_contains "Result: openib"
# Asked for by name, it is still refused with the reason, not silently dropped.
run only_openib "$info" --select btl --mca btl openib,self
expect_contains "no RDMA device found"
finish
