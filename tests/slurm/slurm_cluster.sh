# A private Slurm cluster of one node on loopback for the tests (sourced, POSIX sh, after
# tests/lib/checks.sh): munged with its own key and socket, slurmctld and slurmd with a
# slurm.conf of their own in $work/slurm, on ports nobody else uses. Nothing of the machine's
# own Slurm or munge configuration is read or changed.
#
#   slurm_start    starts the three daemons and waits until the node takes jobs; sets SLURM_CONF.
#                  Returns 1 with the reason in $slurm_why when they cannot run here.
#   slurm_stop     stops them by pid (also on the script's exit).
#   srun_mpi ...   srun --mpi=pmix with the given arguments, at most $srun_limit seconds (90).

slurm_dir="$work/slurm"
slurm_pids=
slurm_why=
srun_limit=90

_sl_need() {
  for _sl_cmd in munged slurmctld slurmd srun sinfo; do
    command -v "$_sl_cmd" >/dev/null 2>&1 || PATH="$PATH:/usr/sbin" command -v "$_sl_cmd" >/dev/null 2>&1 ||
      { slurm_why="$_sl_cmd is not installed (Debian: slurm-wlm, munge)"; return 1; }
  done
  PATH="$PATH:/usr/sbin"
  _sl_plugins=$(dirname "$(find /usr/lib -name mpi_pmix.so -path '*slurm*' 2>/dev/null | head -1)")
  [ -f "$_sl_plugins/mpi_pmix.so" ] || { slurm_why="Slurm's PMIx plugin (mpi_pmix.so) is not installed (Debian: slurm-wlm-basic-plugins)"; return 1; }
  [ "$(id -u)" -eq 0 ] || { slurm_why="slurmd must run as root"; return 1; }
}

_sl_port_free() { ! (ss -ltn 2>/dev/null | awk '{print $4}' | grep -q ":$1\$"); }

_sl_write_conf() {
  _sl_node=$(hostname -s)
  cat >"$slurm_dir/slurm.conf" <<CONF
ClusterName=plexustest
SlurmctldHost=$_sl_node(127.0.0.1)
SlurmctldPort=$_sl_port
SlurmdPort=$((_sl_port + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$slurm_dir/munge.sock
CredType=cred/munge
StateSaveLocation=$slurm_dir/state
SlurmdSpoolDir=$slurm_dir/spool
TmpFS=$slurm_dir/tmp
SlurmctldPidFile=$slurm_dir/slurmctld.pid
SlurmdPidFile=$slurm_dir/slurmd.pid
SlurmctldLogFile=$slurm_dir/slurmctld.log
SlurmdLogFile=$slurm_dir/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
MpiDefault=none
ReturnToService=2
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
PluginDir=$_sl_plugins
NodeName=$_sl_node NodeAddr=127.0.0.1 CPUs=$(nproc)
PartitionName=test Nodes=ALL Default=YES MaxTime=INFINITE State=UP OverSubscribe=YES
CONF
}

_sl_daemon() {  # _sl_daemon NAME CMD...: starts CMD in the background, its pid in slurm_pids
  _sl_name=$1; shift
  "$@" >"$slurm_dir/$_sl_name.out" 2>&1 </dev/null &
  slurm_pids="$slurm_pids $!"
}

_sl_wait_idle() {
  _sl_i=0
  while [ $_sl_i -lt 60 ]; do
    case $(sinfo -h -o %T 2>/dev/null) in idle*|mixed*) return 0 ;; esac
    sleep 0.5; _sl_i=$((_sl_i + 1))
  done
  slurm_why="the node did not become idle within 30 s: $(tail -3 "$slurm_dir"/slurmd.log "$slurm_dir"/slurmctld.log 2>/dev/null | tr '\n' ' ')"
  return 1
}

slurm_start() {
  _sl_need || return 1
  # One private cluster at a time on this machine (make check -j runs the Slurm tests side by
  # side): Slurm's PMIx plugin names its per-step state by job id, which every cluster starts at 1.
  exec 9>"/tmp/plexus-slurm-tests.lock"
  flock 9
  mkdir -p "$slurm_dir/state" "$slurm_dir/spool" "$slurm_dir/tmp" && chmod 711 "$slurm_dir" || return 1
  head -c 1024 /dev/urandom >"$slurm_dir/munge.key" && chmod 600 "$slurm_dir/munge.key"
  _sl_daemon munged munged -F -f --socket="$slurm_dir/munge.sock" --key-file="$slurm_dir/munge.key" \
    --log-file="$slurm_dir/munged.log" --pid-file="$slurm_dir/munged.pid" --seed-file="$slurm_dir/munged.seed"
  _sl_i=0
  until [ -S "$slurm_dir/munge.sock" ] || [ $_sl_i -ge 50 ]; do sleep 0.1; _sl_i=$((_sl_i + 1)); done
  [ -S "$slurm_dir/munge.sock" ] || { slurm_why="munged did not start: $(cat "$slurm_dir/munged.out")"; return 1; }
  _sl_port=$(( 20000 + $(od -An -N2 -tu2 /dev/urandom) % 20000 ))
  while ! _sl_port_free $_sl_port || ! _sl_port_free $((_sl_port + 1)); do _sl_port=$((_sl_port + 2)); done
  _sl_write_conf
  SLURM_CONF="$slurm_dir/slurm.conf"; export SLURM_CONF
  _sl_daemon slurmctld slurmctld -D -c -f "$SLURM_CONF"
  _sl_daemon slurmd slurmd -D -f "$SLURM_CONF" -N "$_sl_node"
  _sl_wait_idle
}

slurm_stop() {
  [ -n "$slurm_pids" ] || return 0
  # shellcheck disable=SC2086
  kill -TERM $slurm_pids 2>/dev/null
  for _sl_pid in $slurm_pids; do
    _sl_i=0
    while kill -0 "$_sl_pid" 2>/dev/null && [ $_sl_i -lt 100 ]; do sleep 0.1; _sl_i=$((_sl_i + 1)); done
    kill -KILL "$_sl_pid" 2>/dev/null
  done
  slurm_pids=
}
trap 'slurm_stop; rm -rf "$work"' EXIT

srun_mpi() { timeout -k 10 "$srun_limit" srun --mpi=pmix "$@"; }
