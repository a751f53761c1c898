# A background load of our own for the busy-machine runs of run.sh (sourced): N processes that
# spin in a shell loop, each under `timeout` so that none outlives its run even if the runner is
# killed outright, and stopped by pid when the run ends (run.sh's EXIT trap calls busy_stop too).
# Unbound, so the scheduler spreads them over the cores as it would other people's programs.

busy_pids=()

# busy_start N SECONDS: starts N spinning processes that end on their own after SECONDS.
busy_start() {
  local i
  for i in $(seq "$1"); do
    # In a session of their own, as other people's programs are: with the kernel's autogroups
    # the scheduler shares a CPU between sessions first, so spinners in the runner's session
    # would take their share from the ranks of a launcher that keeps them in its session (Open
    # MPI) and not from one that gives each rank a session of its own (MPICH, Plexus).
    setsid timeout -k 1 "$2" sh -c 'while :; do :; done' </dev/null >/dev/null 2>&1 &
    busy_pids+=($!)
  done
}

# busy_stop: ends every process busy_start started (timeout passes the TERM on to its loop).
busy_stop() {
  [ ${#busy_pids[@]} -gt 0 ] || return 0
  kill "${busy_pids[@]}" 2>/dev/null
  wait "${busy_pids[@]}" 2>/dev/null
  busy_pids=()
  return 0
}
