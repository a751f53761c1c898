# A private Slurm cluster of three "hosts" on this machine for the tests (sourced, POSIX sh, after
# tests/lib/checks.sh): each host is a network namespace with its own address on a bridge of the
# test's own, and a UTS namespace with its own hostname, running a slurmd; munged and slurmctld run
# in the machine's namespaces, on the bridge's address (the daemons of tests/lib/slurm_daemons.sh).
# Nothing of the machine's own Slurm, munge or network configuration is read or changed;
# everything made is removed on exit, daemons by pid.
#
#   mn_start    makes the bridge, the namespaces and the daemons and waits until every node takes
#               jobs; sets SLURM_CONF, mn_hostN (hostnames), mn_addrN, mn_nsN (the namespaces)
#               for N = 1 .. $mn_count. Returns 1 with the reason in $mn_why when it cannot be
#               done here.
#   mn_drop_host N   host N disappears: every process in its namespace is killed (its slurmd,
#               slurmstepd and the job's ranks: their kernel ends their connections), then the
#               namespace and its veth are deleted.
#   mn_cut_host N    host N's link vanishes (its veth deleted): nothing it sends or answers gets
#               out any more, no end of stream and no reset; its processes go on until
#               mn_drop_host N.
#   mn_stop     stops the daemons by pid and removes the namespaces and the bridge (also on exit).
#   mn_srun ... srun --mpi=pmix with the given arguments, at most $mn_limit seconds.
. "$PLEXUS_TOP_SRCDIR/tests/lib/slurm_daemons.sh"

sd_dir="$work/multinode"
mn_dir=$sd_dir
mn_why=
mn_limit=120
mn_made_ns=
mn_made_links=
mn_count=3

_mn_need() {
  sd_need || { mn_why=$sd_why; return 1; }
  for _mn_cmd in ip nsenter unshare; do
    command -v "$_mn_cmd" >/dev/null 2>&1 || { mn_why="$_mn_cmd is not installed (Debian: iproute2, util-linux)"; return 1; }
  done
}

# The namespaces on a bridge: 10.<a>.<b>.1 is the bridge (this machine), .2, .3, .4 the hosts.
_mn_network() {
  _mn_tag=$$
  _mn_net="10.$((100 + $(od -An -N1 -tu1 /dev/urandom) % 100)).$(( $(od -An -N1 -tu1 /dev/urandom) ))"
  mn_bridge="pxmb$_mn_tag"
  ip link add "$mn_bridge" type bridge 2>"$mn_dir/ip.err" || { mn_why="cannot create a bridge: $(cat "$mn_dir/ip.err")"; return 1; }
  mn_made_links="$mn_bridge"
  ip addr add "$_mn_net.1/24" dev "$mn_bridge" && ip link set "$mn_bridge" up || { mn_why="cannot configure the bridge"; return 1; }
  for _mn_i in $(seq "$mn_count"); do
    _mn_ns="pxmn$_mn_tag-$_mn_i" _mn_veth="pxmv$_mn_tag-$_mn_i"
    ip netns add "$_mn_ns" 2>"$mn_dir/ip.err" || { mn_why="cannot create a network namespace: $(cat "$mn_dir/ip.err")"; return 1; }
    mn_made_ns="$mn_made_ns $_mn_ns"
    ip link add "$_mn_veth" type veth peer name eth0 netns "$_mn_ns" 2>"$mn_dir/ip.err" ||
      { mn_why="cannot create a veth pair: $(cat "$mn_dir/ip.err")"; return 1; }
    mn_made_links="$mn_made_links $_mn_veth"
    ip link set "$_mn_veth" master "$mn_bridge" up &&
      ip netns exec "$_mn_ns" ip addr add "$_mn_net.$((_mn_i + 1))/24" dev eth0 &&
      ip netns exec "$_mn_ns" ip link set eth0 up &&
      ip netns exec "$_mn_ns" ip link set lo up &&
      ip netns exec "$_mn_ns" ip route add default via "$_mn_net.1" || { mn_why="cannot configure namespace $_mn_ns"; return 1; }
  done
  mn_ctl="$_mn_net.1"
  for _mn_i in $(seq "$mn_count"); do
    eval "mn_ns$_mn_i=pxmn$_mn_tag-$_mn_i mn_addr$_mn_i=$_mn_net.$((_mn_i + 1)) mn_host$_mn_i=pxhost$_mn_tag-$_mn_i"
  done
}

mn_start() {
  _mn_need || return 1
  sd_lock
  sd_start_munge || { mn_why=$sd_why; return 1; }
  _mn_network || return 1
  sd_pick_ports
  # SlurmdTimeout: a host that disappears is declared down, and its job ended, within seconds.
  _mn_nodes=
  for _mn_i in $(seq "$mn_count"); do
    eval "_mn_nodes=\"\$_mn_nodes
NodeName=\$mn_host$_mn_i NodeAddr=\$mn_addr$_mn_i CPUs=$(nproc)\""
  done
  sd_write_conf plexusmn "$mn_ctl" "$mn_dir/spool/%n" "$mn_dir/slurmd.%n.pid" "$mn_dir/slurmd.%n.log" \
    "SlurmdTimeout=10$_mn_nodes"
  sd_daemon slurmctld slurmctld -D -c -f "$SLURM_CONF"
  # Each slurmd in its host's network namespace, a UTS namespace of its own (its hostname) and a
  # mount namespace where TmpFS is a folder of its own (Slurm's PMIx plugin names its per-step
  # folders there by job id alone); nsenter rather than ip netns exec, which remounts /sys
  # without the cgroup file system slurmd needs.
  for _mn_i in $(seq "$mn_count"); do
    eval "_mn_ns=\$mn_ns$_mn_i _mn_host=\$mn_host$_mn_i"
    mkdir -p "$mn_dir/spool/$_mn_host" "$mn_dir/tmp-$_mn_host"
    sd_daemon "slurmd-$_mn_i" nsenter --net="/run/netns/$_mn_ns" unshare --uts --mount --propagation private sh -c \
      "mount --bind '$mn_dir/tmp-$_mn_host' '$mn_dir/tmp' && hostname '$_mn_host' &&
       exec slurmd -D -f '$SLURM_CONF' -N '$_mn_host'"
  done
  sd_wait_nodes "$mn_count" || { mn_why=$sd_why; return 1; }
}

# Kills every process in namespace $1 (a step's leftovers, or a host's everything).
_mn_kill_in() {
  for _mn_pid in $(ip netns pids "$1" 2>/dev/null); do kill -KILL "$_mn_pid" 2>/dev/null; done
}

mn_drop_host() {
  eval "_mn_ns=\$mn_ns$1"
  _mn_kill_in "$_mn_ns"
  # Gone before the network goes, as when a host's processes die with it (at most 5 s).
  _mn_i=0
  while [ -n "$(ip netns pids "$_mn_ns" 2>/dev/null)" ] && [ $_mn_i -lt 50 ]; do sleep 0.1; _mn_i=$((_mn_i + 1)); done
  ip netns del "$_mn_ns" 2>/dev/null
  ip link del "pxmv$_mn_tag-$1" 2>/dev/null
}

mn_cut_host() {
  ip link del "pxmv$_mn_tag-$1" 2>/dev/null
}

mn_stop() {
  sd_stop
  for _mn_ns in $mn_made_ns; do
    _mn_kill_in "$_mn_ns"
    ip netns del "$_mn_ns" 2>/dev/null
  done
  for _mn_link in $mn_made_links; do ip link del "$_mn_link" 2>/dev/null; done
  mn_made_ns= mn_made_links=
mn_count=3
}
trap 'mn_stop; rm -rf "$work"' EXIT

mn_srun() { timeout -k 10 "$mn_limit" srun --mpi=pmix "$@"; }
