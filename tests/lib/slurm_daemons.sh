# The daemons of a private Slurm cluster, shared by tests/slurm/slurm_cluster.sh (one node on
# loopback) and tests/multinode/netns_cluster.sh (two hosts made of network namespaces); sourced,
# POSIX sh, after tests/lib/checks.sh. munged with a key and a socket of its own, slurmctld and
# slurmd with a slurm.conf written here, every daemon in the background with its pid kept and
# stopped by that pid. Nothing of the machine's own Slurm or munge configuration is read or changed.
# The caller sets sd_dir (a folder of its $work) first.
#
#   sd_need               root, the daemons and clients, Slurm's PMIx plugin (sets sd_plugins);
#                         returns 1 with the reason in $sd_why when something is missing.
#   sd_lock               one private cluster at a time on this machine, held until the script
#                         ends (Slurm's PMIx plugin names its per-step state by job id, which every
#                         private cluster starts at 1).
#   sd_daemon NAME CMD... CMD in the background, output in $sd_dir/NAME.out, its pid kept.
#   sd_start_munge        munged on $sd_dir/munge.sock with a fresh key; 1 with $sd_why.
#   sd_pick_ports         sd_port (slurmctld) and sd_port + 1 (slurmd), both free here.
#   sd_write_conf CLUSTER CTL_ADDR SPOOL SLURMD_PID SLURMD_LOG NODE_LINES
#                         $sd_dir/slurm.conf (SPOOL, SLURMD_PID and SLURMD_LOG may hold %n, the
#                         node's name), exported as SLURM_CONF.
#   sd_wait_nodes N       until N nodes take jobs, at most 40 s; 1 with $sd_why.
#   sd_stop               every daemon by pid: TERM, then KILL after 10 s.

sd_pids=
sd_why=

sd_need() {
  [ "$(id -u)" -eq 0 ] || { sd_why="slurmd must run as root"; return 1; }
  PATH="$PATH:/usr/sbin:/sbin"
  for _sd_cmd in munged slurmctld slurmd srun sinfo; do
    command -v "$_sd_cmd" >/dev/null 2>&1 ||
      { sd_why="$_sd_cmd is not installed (Debian: slurm-wlm, munge)"; return 1; }
  done
  sd_plugins=$(dirname "$(find /usr/lib -name mpi_pmix.so -path '*slurm*' 2>/dev/null | head -1)")
  [ -f "$sd_plugins/mpi_pmix.so" ] ||
    { sd_why="Slurm's PMIx plugin (mpi_pmix.so) is not installed (Debian: slurm-wlm-basic-plugins)"; return 1; }
}

sd_lock() {
  exec 9>"/tmp/plexus-slurm-tests.lock"
  flock 9
}

sd_daemon() {
  _sd_name=$1; shift
  "$@" >"$sd_dir/$_sd_name.out" 2>&1 </dev/null &
  sd_pids="$sd_pids $!"
}

sd_start_munge() {
  mkdir -p "$sd_dir/state" "$sd_dir/spool" "$sd_dir/tmp" && chmod 711 "$sd_dir" ||
    { sd_why="cannot make $sd_dir"; return 1; }
  head -c 1024 /dev/urandom >"$sd_dir/munge.key" && chmod 600 "$sd_dir/munge.key"
  sd_daemon munged munged -F -f --socket="$sd_dir/munge.sock" --key-file="$sd_dir/munge.key" \
    --log-file="$sd_dir/munged.log" --pid-file="$sd_dir/munged.pid" --seed-file="$sd_dir/munged.seed"
  _sd_i=0
  until [ -S "$sd_dir/munge.sock" ] || [ $_sd_i -ge 50 ]; do sleep 0.1; _sd_i=$((_sd_i + 1)); done
  [ -S "$sd_dir/munge.sock" ] || { sd_why="munged did not start: $(cat "$sd_dir/munged.out")"; return 1; }
}

_sd_port_free() { ! (ss -ltn 2>/dev/null | awk '{print $4}' | grep -q ":$1\$"); }

sd_pick_ports() {
  sd_port=$(( 20000 + $(od -An -N2 -tu2 /dev/urandom) % 20000 ))
  while ! _sd_port_free $sd_port || ! _sd_port_free $((sd_port + 1)); do sd_port=$((sd_port + 2)); done
}

sd_write_conf() {
  cat >"$sd_dir/slurm.conf" <<CONF
ClusterName=$1
SlurmctldHost=$(hostname -s)($2)
SlurmctldPort=$sd_port
SlurmdPort=$((sd_port + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$sd_dir/munge.sock
CredType=cred/munge
StateSaveLocation=$sd_dir/state
SlurmdSpoolDir=$3
TmpFS=$sd_dir/tmp
SlurmctldPidFile=$sd_dir/slurmctld.pid
SlurmdPidFile=$4
SlurmctldLogFile=$sd_dir/slurmctld.log
SlurmdLogFile=$5
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
MpiDefault=none
ReturnToService=2
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
PluginDir=$sd_plugins
$6
PartitionName=test Nodes=ALL Default=YES MaxTime=INFINITE State=UP OverSubscribe=YES
CONF
  SLURM_CONF="$sd_dir/slurm.conf"; export SLURM_CONF
}

sd_wait_nodes() {
  _sd_i=0
  while [ $_sd_i -lt 80 ]; do
    [ "$(sinfo -h -N -o %T 2>/dev/null | grep -c -E '^(idle|mixed)')" -ge "$1" ] && return 0
    sleep 0.5; _sd_i=$((_sd_i + 1))
  done
  sd_why="$1 node(s) did not take jobs within 40 s: $(sinfo -h -N 2>&1 | tr '\n' ' ') $(tail -2 "$sd_dir"/slurmd*.log "$sd_dir/slurmctld.log" 2>/dev/null | tr '\n' ' ')"
  return 1
}

sd_stop() {
  [ -n "$sd_pids" ] || return 0
  # shellcheck disable=SC2086
  kill -TERM $sd_pids 2>/dev/null
  for _sd_pid in $sd_pids; do
    _sd_i=0
    while kill -0 "$_sd_pid" 2>/dev/null && [ $_sd_i -lt 100 ]; do sleep 0.1; _sd_i=$((_sd_i + 1)); done
    kill -KILL "$_sd_pid" 2>/dev/null
  done
  sd_pids=
}
