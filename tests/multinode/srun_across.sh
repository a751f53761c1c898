#!/bin/sh
# MPI jobs across hosts on one machine (issue 22 item 4): tests/multinode/netns_cluster.sh makes
# three network namespaces joined by veth pairs on a bridge, each a "host" with its own address
# and hostname, with a slurmd in each, and the jobs run under srun --mpi=pmix -N 2 with
# Plexus's default BTLs: sm between the ranks of one host, tcp between the hosts (the connections
# btl_tcp logs at btl_base_verbose 10 are checked: only pairs on different hosts, over the hosts'
# addresses). Every byte is verified; a rank that aborts or crashes ends the job with the right
# status and nothing left; a host that disappears (its processes killed, or its link cut without
# a word) is named by the other host's ranks, which end the job. plexrun stays a one-node
# launcher: across hosts jobs start under Slurm.
# Skipped, with the reason, where namespaces or Slurm cannot be used.
. "${PLEXUS_TOP_SRCDIR:?run through make check}/tests/lib/checks.sh"
. "$PLEXUS_TOP_SRCDIR/tests/multinode/netns_cluster.sh"
b=${PLEXUS_TOP_BUILDDIR:?run through make check}
mkdir -p "$work/bin"
for p in tests/slurm/crash_at tests/mpi/pingpong tests/mpi/ring tests/mpi/coll_intra tests/mpi/comm_ops; do cp "$b/$p" "$work/bin/"; done
# make check's LSAN_OPTIONS (suppressions, symbolize=0) when it runs us, else the suppressions.
lsan=${LSAN_OPTIONS:-"suppressions=$PLEXUS_TOP_SRCDIR/tests/lib/lsan-libpmix.supp:print_suppressions=0"}

if ! mn_start; then
  echo "SKIP: no cluster of namespace hosts here: $mn_why"
  exit 77
fi

# across NAME NODES RANKS PROGRAM ARGS...: srun -l (task-labelled lines), block distribution, on
# the first two hosts (the third is lost by a test of its own), the default BTLs with btl_tcp's
# connections logged.
across() {
  _n=$1 _nodes=$2 _r=$3; shift 3
  run -t 150 "$_n" env PLEXUS_MCA_btl_base_verbose=10 PLEXUS_MCA_runtime_base_verbose=1 LSAN_OPTIONS="$lsan" \
    srun --mpi=pmix -l -O -N "$_nodes" -n "$_r" -w "$mn_host1,$mn_host2" --distribution=block "$@"
}

# Every btl_tcp connection joins ranks of different hosts (ranks 0..half-1 on host 1), over a
# host's own address, and there is at least one.
expect_tcp_only_across() {
  _half=$(($1 / 2))
  _lines=$(grep -E '^ *[0-9]+: .*connected to rank [0-9]+ of job .* on host ' "$err")
  [ -n "$_lines" ] || { fail "$name: no btl_tcp connection logged"; show; return; }
  echo "$_lines" | while IFS= read -r _l; do
    _from=$(echo "$_l" | sed -n 's/^ *\([0-9]*\): .*/\1/p')
    _to=$(echo "$_l" | sed -n 's/.*connected to rank \([0-9]*\) of job.*/\1/p')
    if [ $((_from < _half)) -eq $((_to < _half)) ]; then echo "same host: $_l"; fi
    case $_l in *"($mn_addr1:"*|*"($mn_addr2:"*) ;; *) echo "not a host address: $_l" ;; esac
  done >"$work/tcp_wrong"
  [ -s "$work/tcp_wrong" ] && { fail "$name: $(head -3 "$work/tcp_wrong")"; show; }
}

expect_nothing_left() {
  sleep 0.5
  for _ns in $mn_ns1 $mn_ns2 $mn_ns3; do
    for _pid in $(ip netns pids "$_ns" 2>/dev/null); do
      case $(readlink "/proc/$_pid/exe" 2>/dev/null) in "$work"/bin/*) fail "$name: process $_pid left in $_ns"; kill -9 "$_pid" ;; esac
    done
  done
}

across pingpong_2x1 2 2 "$work/bin/pingpong"
expect_status 0
# A job across nodes collects every card at its init fence (the lost cards, README).
expect_count "$err" 2 'init fence \(collecting every card\) took'
expect_contains "$out" "pingpong: PASS: 2 ranks"
expect_contains "$err" "on host $mn_host2 ($mn_addr2:"
expect_tcp_only_across 2

across ring_2x2 2 4 "$work/bin/ring"
expect_status 0
expect_contains "$out" "ring: PASS: 4 ranks"
expect_tcp_only_across 4

across coll_intra_2x2 2 4 "$work/bin/coll_intra"
expect_status 0
expect_contains "$out" "coll_intra: PASS: 4 ranks"
expect_tcp_only_across 4

# Communicators from dup, split and create across the hosts, traffic on each.
across comm_ops_2x2 2 4 "$work/bin/comm_ops"
expect_status 0
expect_contains "$out" "comm_ops: PASS: 4 ranks"
expect_tcp_only_across 4

# A rank that aborts on the second host ends the step with its status.
across abort_2x2 2 4 "$work/bin/crash_at" abort 2
expect_status 7
expect_contains "$err" "aborts the job (status 7)"
expect_nothing_left

# A rank that crashes after traffic: the step fails, srun names the task, nothing is left.
across segfault_2x2 2 4 "$work/bin/crash_at" traffic 3
[ "$status" -ne 0 ] || { fail "$name: exit status 0 after a rank crashed"; show; }
# (an AddressSanitizer build turns the signal into exit code 1)
grep -Eq "$mn_host2: task 3: (Segmentation fault|Exited with exit code)" "$err" ||
  { fail "$name: srun did not name task 3 on $mn_host2"; show; }
expect_nothing_left

# Spawn under Slurm: its PMIx plugin starts no processes (PMIx_Spawn answers NOT-SUPPORTED), so
# MPI_Comm_spawn fails at every rank with MPI_ERR_SPAWN and says why, and the job goes on.
across spawn_2x2 2 4 "$work/bin/crash_at" spawn 0
expect_status 0
expect_contains "$out" "crash_at: PASS: spawn refused: "
expect_contains "$out" "does not start processes (Slurm's srun --mpi=pmix does not"

# The job's /dev/shm objects, by the prefix the runtime logs (runtime_base_verbose 1): none left.
expect_no_shm() {
  _p=$(sed -n 's/.*shm prefix \(plexus-[0-9a-f]\{16\}-\).*/\1/p' "$err" | head -1)
  if [ -z "$_p" ]; then fail "$name: no shm prefix in the runtime's log"; show; return; fi
  if ls /dev/shm/"$_p"* >/dev/null 2>&1; then fail "$name: left in /dev/shm: $(ls /dev/shm/"$_p"*)"; rm -f /dev/shm/"$_p"*; fi
}

# lose_host NAME N HOW: 4 ranks, two on host 1 and two on host N, exchange a ring (ranks 1-2 and
# 3-0 through btl_tcp) and wait in a receive; then host N disappears. HOW "drop": every process
# in its namespace is killed, so its kernel ends their connections without a goodbye; "cut": its
# link is deleted first, so nothing at all comes from it and only btl_tcp's keepalive (1 s idle,
# 1 s apart, 3 probes here) notices. Either way host 1's ranks end the job with a message naming
# a rank of host N, the job and the host; the job ends non-zero by itself; nothing is left on
# host 1 or in /dev/shm.
lose_host() {
  name=$1 _n=$2 _how=$3
  eval "_host=\$mn_host$_n"
  out="$work/$name.out" err="$work/$name.err" status=0
  _start=$(date +%s)
  env PLEXUS_MCA_btl_base_verbose=10 PLEXUS_MCA_runtime_base_verbose=1 PLEXUS_MCA_btl_tcp_keepalive_time=1 \
    PLEXUS_MCA_btl_tcp_keepalive_interval=1 PLEXUS_MCA_btl_tcp_keepalive_count=3 LSAN_OPTIONS="$lsan" \
    timeout -k 5 120 srun --mpi=pmix -l -O -N 2 -n 4 -w "$mn_host1,$_host" --distribution=block \
    "$work/bin/crash_at" traffic 9 >"$out" 2>"$err" </dev/null &
  _job=$!
  # Past MPI_Init and the ring exchange (both ends log each connection): every rank waits in a
  # receive (up to 60 s on a busy machine).
  _i=0
  until [ "$(grep -c 'connected to rank' "$err")" -ge 4 ] || [ $_i -ge 300 ]; do sleep 0.2; _i=$((_i + 1)); done
  sleep 1
  _t0=$(date +%s)
  if [ "$_how" = cut ]; then mn_cut_host "$_n"; else mn_drop_host "$_n"; fi
  _named=
  while kill -0 "$_job" 2>/dev/null; do
    [ -n "$_named" ] || ! grep -q "without saying goodbye" "$err" || _named=$(($(date +%s) - _t0))
    sleep 0.2
  done
  wait "$_job" || status=$?
  _ended=$(date +%s) _took=$(($(date +%s) - _t0))
  [ "$_how" = cut ] && mn_drop_host "$_n"  # its ranks and daemons, cut off, were still there
  echo "  $name: the lost host named after ${_named:-?} s, srun exited after $_took s" \
    "(status $status; not a check: the machine is shared)"
  [ "$status" -ne 0 ] || { fail "$name: exit status 0 after host $_host went away"; show; }
  # Whether timeout(1) ended it is told by the time, not the status: srun itself exits 137 when
  # Slurm kills the step on the node failure before the survivors' abort (status 1) reaches it.
  [ $((_ended - _start)) -lt 120 ] || { fail "$name: the job did not end by itself after $_host went away"; show; }
  grep -Eq "^ *[01]: .*btl_tcp: rank [23] of job [^ ]+ on host $_host \([0-9.]+:[0-9]+\): .*without saying goodbye: the process died, or its host went away" "$err" ||
    { fail "$name: no rank of host 1 named the lost host $_host"; show; }
  grep -E "btl_tcp: rank [23] of job|Node failure|NODE FAILURE" "$err" | head -3 | sed "s/^/  $name said: /"
  expect_nothing_left
  expect_no_shm
}

# A host whose link vanishes (power, a cable, a switch): no end of stream and no reset, only
# silence, which keepalive bounds. Before host_gone, on the third host, so that the jobs above
# keep hosts 1 and 2.
lose_host link_gone 3 cut

# A host that disappears with its processes (every one in its namespace killed, the namespace and
# its veth deleted). Last, as the cluster has one host afterwards.
lose_host host_gone 2 drop

finish
