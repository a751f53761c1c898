# A private Slurm cluster of one node on loopback for the tests (sourced, POSIX sh, after
# tests/lib/checks.sh): the daemons of tests/lib/slurm_daemons.sh in $work/slurm, on ports nobody
# else uses. Nothing of the machine's own Slurm or munge configuration is read or changed.
#
#   slurm_start    starts munged, slurmctld and slurmd and waits until the node takes jobs; sets
#                  SLURM_CONF. Returns 1 with the reason in $slurm_why when they cannot run here.
#   slurm_stop     stops them by pid (also on the script's exit).
#   srun_mpi ...   srun --mpi=pmix with the given arguments, at most $srun_limit seconds (90).
. "$PLEXUS_TOP_SRCDIR/tests/lib/slurm_daemons.sh"

sd_dir="$work/slurm"
slurm_why=
srun_limit=90

slurm_start() {
  sd_need && sd_lock && sd_start_munge || { slurm_why=$sd_why; return 1; }
  _sl_node=$(hostname -s)
  sd_pick_ports
  sd_write_conf plexustest 127.0.0.1 "$sd_dir/spool" "$sd_dir/slurmd.pid" "$sd_dir/slurmd.log" \
    "NodeName=$_sl_node NodeAddr=127.0.0.1 CPUs=$(nproc)"
  sd_daemon slurmctld slurmctld -D -c -f "$SLURM_CONF"
  sd_daemon slurmd slurmd -D -f "$SLURM_CONF" -N "$_sl_node"
  sd_wait_nodes 1 || { slurm_why=$sd_why; return 1; }
}

slurm_stop() { sd_stop; }
trap 'slurm_stop; rm -rf "$work"' EXIT

srun_mpi() { timeout -k 10 "$srun_limit" srun --mpi=pmix "$@"; }
