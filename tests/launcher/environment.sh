#!/bin/sh
# --mca reaches every rank as PLEXUS_MCA_<name> plus PLEXUS_MCA_FROM_CLI; an outer
# PLEXUS_MCA_FROM_CLI does not leak through; rank 0 alone reads plexrun's stdin.
. "$PLEXUS_TOP_SRCDIR/tests/launcher/common.sh"

show_env='echo "rank $PMIX_RANK btl=${PLEXUS_MCA_btl-unset} v=${PLEXUS_MCA_coll_base_verbose-unset} env=${PLEXUS_MCA_osc-unset} from=${PLEXUS_MCA_FROM_CLI-unset}"'

PLEXUS_MCA_osc=rdma run -t 30 mca "$plexrun" -n 2 --mca btl sm,self --mca coll_base_verbose 10 \
  --mca btl tcp,self sh -c "$show_env"
expect_status 0
# A repeated name keeps its last value and is listed once.
expect_line "$out" "rank 0 btl=tcp,self v=10 env=rdma from=btl,coll_base_verbose"
expect_line "$out" "rank 1 btl=tcp,self v=10 env=rdma from=btl,coll_base_verbose"
expect_count "$out" 2 .

PLEXUS_MCA_FROM_CLI=btl PLEXUS_MCA_btl=sm run -t 30 mca-none "$plexrun" -n 1 sh -c "$show_env"
expect_status 0
expect_line "$out" "rank 0 btl=sm v=unset env=unset from=unset"

# The PMIx variables are libpmix's (PMIx_server_setup_fork), namespace and rank included.
run -t 30 pmix-env "$plexrun" -n 2 sh -c 'echo "$PMIX_RANK $PMIX_NAMESPACE"'
expect_status 0
expect_count "$out" 1 '^0 plexrun\.[0-9]+\.1$'
expect_count "$out" 1 '^1 plexrun\.[0-9]+\.1$'

# Nothing of plexrun's (pipes, libpmix's sockets) leaks into a rank: ls sees 0, 1, 2 and the
# directory it opened itself.
run -t 30 fds "$plexrun" -n 2 --tag-output ls /proc/self/fd
expect_status 0
for r in 0 1; do
  got=$(sed -n "s/^\[1,$r\]<stdout>: //p" "$out" | tr '\n' ' ')
  [ "$got" = "0 1 2 3 " ] || { fail "fds: rank $r has descriptors $got"; show; }
done

# stdin: rank 0 reads it, the others read /dev/null.
printf 'first line\nsecond line\n' >"$work/input"
name=stdin out="$work/stdin.out" err="$work/stdin.err"
timeout -k 5 30 "$plexrun" -n 3 sh -c 'while read -r l; do echo "rank $PMIX_RANK read: $l"; done; echo "rank $PMIX_RANK eof"' \
  <"$work/input" >"$out" 2>"$err"
status=$?
expect_status 0
expect_line "$out" "rank 0 read: first line"
expect_line "$out" "rank 0 read: second line"
expect_count "$out" 2 "read:"
expect_count "$out" 3 "^rank [0-2] eof$"
expect_clean

finish
