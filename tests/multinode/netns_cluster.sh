# A private Slurm cluster of two "hosts" on this machine for the tests (sourced, POSIX sh, after
# tests/lib/checks.sh): each host is a network namespace with its own address on a bridge of the
# test's own, and a UTS namespace with its own hostname, running a slurmd; munged and slurmctld run
# in the machine's namespaces, on the bridge's address. Nothing of the machine's own Slurm, munge or
# network configuration is read or changed; everything made is removed on exit, daemons by pid.
#
#   mn_start    makes the bridge, the namespaces and the daemons and waits until both nodes take
#               jobs; sets SLURM_CONF, mn_host1/mn_host2 (hostnames), mn_addr1/mn_addr2. Returns 1
#               with the reason in $mn_why when it cannot be done here.
#   mn_stop     stops the daemons by pid and removes the namespaces and the bridge (also on exit).
#   mn_srun ... srun --mpi=pmix with the given arguments, at most $mn_limit seconds.

mn_dir="$work/multinode"
mn_pids=
mn_why=
mn_limit=120
mn_made_ns=
mn_made_links=

_mn_need() {
  [ "$(id -u)" -eq 0 ] || { mn_why="network namespaces and slurmd need root"; return 1; }
  PATH="$PATH:/usr/sbin:/sbin"
  for _mn_cmd in ip nsenter unshare munged slurmctld slurmd srun sinfo; do
    command -v "$_mn_cmd" >/dev/null 2>&1 || { mn_why="$_mn_cmd is not installed (Debian: iproute2, util-linux, slurm-wlm, munge)"; return 1; }
  done
  _mn_plugins=$(dirname "$(find /usr/lib -name mpi_pmix.so -path '*slurm*' 2>/dev/null | head -1)")
  [ -f "$_mn_plugins/mpi_pmix.so" ] || { mn_why="Slurm's PMIx plugin (mpi_pmix.so) is not installed (Debian: slurm-wlm-basic-plugins)"; return 1; }
}

_mn_daemon() {  # _mn_daemon NAME CMD...: CMD in the background, its pid in mn_pids
  _mn_name=$1; shift
  "$@" >"$mn_dir/$_mn_name.out" 2>&1 </dev/null &
  mn_pids="$mn_pids $!"
}

# Two namespaces on a bridge: 10.<a>.<b>.1 is the bridge (this machine), .2 and .3 the hosts.
_mn_network() {
  _mn_tag=$$
  _mn_net="10.$((100 + $(od -An -N1 -tu1 /dev/urandom) % 100)).$(( $(od -An -N1 -tu1 /dev/urandom) ))"
  mn_bridge="pxmb$_mn_tag"
  ip link add "$mn_bridge" type bridge 2>"$mn_dir/ip.err" || { mn_why="cannot create a bridge: $(cat "$mn_dir/ip.err")"; return 1; }
  mn_made_links="$mn_bridge"
  ip addr add "$_mn_net.1/24" dev "$mn_bridge" && ip link set "$mn_bridge" up || { mn_why="cannot configure the bridge"; return 1; }
  for _mn_i in 1 2; do
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
  mn_ns1="pxmn$_mn_tag-1" mn_ns2="pxmn$_mn_tag-2"
  mn_addr1="$_mn_net.2" mn_addr2="$_mn_net.3" mn_ctl="$_mn_net.1"
  mn_host1="pxhost$_mn_tag-1" mn_host2="pxhost$_mn_tag-2"
}

_mn_write_conf() {
  cat >"$mn_dir/slurm.conf" <<CONF
ClusterName=plexusmn
SlurmctldHost=$(hostname -s)($mn_ctl)
SlurmctldPort=$_mn_port
SlurmdPort=$((_mn_port + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$mn_dir/munge.sock
CredType=cred/munge
StateSaveLocation=$mn_dir/state
SlurmdSpoolDir=$mn_dir/spool/%n
TmpFS=$mn_dir/tmp
SlurmctldPidFile=$mn_dir/slurmctld.pid
SlurmdPidFile=$mn_dir/slurmd.%n.pid
SlurmctldLogFile=$mn_dir/slurmctld.log
SlurmdLogFile=$mn_dir/slurmd.%n.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
MpiDefault=none
ReturnToService=2
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
PluginDir=$_mn_plugins
NodeName=$mn_host1 NodeAddr=$mn_addr1 CPUs=$(nproc)
NodeName=$mn_host2 NodeAddr=$mn_addr2 CPUs=$(nproc)
PartitionName=test Nodes=ALL Default=YES MaxTime=INFINITE State=UP OverSubscribe=YES
CONF
}

_mn_wait_idle() {
  _mn_i=0
  while [ $_mn_i -lt 80 ]; do
    [ "$(sinfo -h -o %T 2>/dev/null | grep -c -E '^(idle|mixed)')" -ge 1 ] &&
      [ "$(sinfo -h -N -o %T 2>/dev/null | grep -c -E '^(idle|mixed)')" -eq 2 ] && return 0
    sleep 0.5; _mn_i=$((_mn_i + 1))
  done
  mn_why="the two nodes did not become idle within 40 s: $(sinfo -h -N 2>&1 | tr '\n' ' ') $(tail -2 "$mn_dir"/slurmd.*.log "$mn_dir"/slurmctld.log 2>/dev/null | tr '\n' ' ')"
  return 1
}

mn_start() {
  _mn_need || return 1
  # One private cluster at a time (Slurm's PMIx plugin names its per-step state by job id).
  exec 9>"/tmp/plexus-slurm-tests.lock"
  flock 9
  mkdir -p "$mn_dir/state" "$mn_dir/spool" "$mn_dir/tmp" && chmod 711 "$mn_dir" || return 1
  _mn_network || return 1
  head -c 1024 /dev/urandom >"$mn_dir/munge.key" && chmod 600 "$mn_dir/munge.key"
  _mn_daemon munged munged -F -f --socket="$mn_dir/munge.sock" --key-file="$mn_dir/munge.key" \
    --log-file="$mn_dir/munged.log" --pid-file="$mn_dir/munged.pid" --seed-file="$mn_dir/munged.seed"
  _mn_i=0
  until [ -S "$mn_dir/munge.sock" ] || [ $_mn_i -ge 50 ]; do sleep 0.1; _mn_i=$((_mn_i + 1)); done
  [ -S "$mn_dir/munge.sock" ] || { mn_why="munged did not start: $(cat "$mn_dir/munged.out")"; return 1; }
  _mn_port=$(( 20000 + $(od -An -N2 -tu2 /dev/urandom) % 20000 ))
  _mn_write_conf
  SLURM_CONF="$mn_dir/slurm.conf"; export SLURM_CONF
  _mn_daemon slurmctld slurmctld -D -c -f "$SLURM_CONF"
  # Each slurmd in its host's network namespace, a UTS namespace of its own (its hostname) and a
  # mount namespace where TmpFS is a folder of its own (Slurm's PMIx plugin names its per-step
  # folders there by job id alone); nsenter rather than ip netns exec, which remounts /sys
  # without the cgroup file system slurmd needs.
  for _mn_i in 1 2; do
    eval "_mn_ns=\$mn_ns$_mn_i _mn_host=\$mn_host$_mn_i"
    mkdir -p "$mn_dir/spool/$_mn_host" "$mn_dir/tmp-$_mn_host"
    _mn_daemon "slurmd-$_mn_i" nsenter --net="/run/netns/$_mn_ns" unshare --uts --mount --propagation private sh -c \
      "mount --bind '$mn_dir/tmp-$_mn_host' '$mn_dir/tmp' && hostname '$_mn_host' &&
       exec slurmd -D -f '$SLURM_CONF' -N '$_mn_host'"
  done
  _mn_wait_idle
}

mn_stop() {
  if [ -n "$mn_pids" ]; then
    # shellcheck disable=SC2086
    kill -TERM $mn_pids 2>/dev/null
    for _mn_pid in $mn_pids; do
      _mn_i=0
      while kill -0 "$_mn_pid" 2>/dev/null && [ $_mn_i -lt 100 ]; do sleep 0.1; _mn_i=$((_mn_i + 1)); done
      kill -KILL "$_mn_pid" 2>/dev/null
    done
    mn_pids=
  fi
  # Processes still inside a namespace (a step's leftovers) are ended before it goes.
  for _mn_ns in $mn_made_ns; do
    for _mn_pid in $(ip netns pids "$_mn_ns" 2>/dev/null); do kill -KILL "$_mn_pid" 2>/dev/null; done
    ip netns del "$_mn_ns" 2>/dev/null
  done
  for _mn_link in $mn_made_links; do ip link del "$_mn_link" 2>/dev/null; done
  mn_made_ns= mn_made_links=
}
trap 'mn_stop; rm -rf "$work"' EXIT

mn_srun() { timeout -k 10 "$mn_limit" srun --mpi=pmix "$@"; }
