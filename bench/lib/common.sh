# Shell shared by the runners that compare Plexus with Open MPI and MPICH (bench/pt2pt/run.sh,
# bench/datatype/run.sh, bench/coll/run.sh); sourced, not run. The caller sets, before calling
# anything here:
#   build   the Plexus build directory (absolute)
#   srcdir  the source tree (absolute)
#   work    a private temporary directory: every program the runner starts lives in it, which is
#           how reap_strays recognises them
# and, for wait_quiet, quiet_wait and quiet_total (seconds).
# shellcheck shell=bash disable=SC2154,SC2034  # those variables come from, and these go to, the caller

ncores=$(nproc)
plexrun="$build/tools/plexrun/plexrun"
# Open MPI: ob1 over its shared-memory BTL (vader) is what it uses here anyway (there is no UCX
# PML in Debian's build); naming it skips probing tcp and gave the best numbers.
ompi_mca="--mca pml ob1 --mca btl self,vader"
declare -A cc_pre cc_post skipped

label() { case $1 in plexus) echo Plexus ;; openmpi) echo "Open MPI" ;; mpich) echo MPICH ;; esac; }

# check_impls LIST: exits with a message when LIST names something other than the three.
check_impls() {
  local impl
  for impl in ${1//,/ }; do
    case $impl in plexus|openmpi|mpich) ;;
      *) echo "run.sh: --impl: '$impl' is not one of plexus, openmpi, mpich" >&2; exit 2 ;; esac
  done
}

# A launcher killed by the timeout normally takes its ranks with it; anything of ours still running
# afterwards (found by its executable, which lives in $work) is ended by pid.
reap_strays() {
  local exe pid
  for exe in /proc/[0-9]*/exe; do
    pid=${exe#/proc/}; pid=${pid%/exe}
    case $(readlink "$exe" 2>/dev/null) in "$work"/*) kill -KILL "$pid" 2>/dev/null ;; esac
  done
}

# Open MPI leaves its shared-memory segments (/dev/shm/vader_segment.*) behind when a run is
# killed, and sometimes when it is not. shm_snapshot before a run; clean_ompi_shm after it removes
# the segments that appeared since and that no process has mapped any more: segments of another
# job running on the machine at the same time are left alone.
shm_snapshot() {
  local seg
  for seg in /dev/shm/vader_segment.*; do [ -e "$seg" ] && echo "$seg"; done >"$work/shm.before"
}
clean_ompi_shm() {
  local mapped seg
  mapped=$(cat /proc/[0-9]*/maps 2>/dev/null | grep -o '/dev/shm/vader_segment\.[^ ]*' | sort -u)
  for seg in /dev/shm/vader_segment.*; do
    [ -e "$seg" ] || continue
    grep -qxF "$seg" "$work/shm.before" 2>/dev/null && continue
    grep -qxF "$seg" <<<"$mapped" && continue
    rm -f "$seg"
  done
}

# find_compiler IMPL: the compiler command before and after the sources in cc_pre[IMPL] and
# cc_post[IMPL], or the reason to skip IMPL in skipped[IMPL].
find_compiler() {
  local impl=$1
  case $impl in
    plexus)
      [ -x "$plexrun" ] || { skipped[$impl]="no launcher at $plexrun (plexrun needs PMIx; run make first)"; return; }
      if [ -x "$build/tools/mpicc/mpicc-build-tree" ]; then
        cc_pre[$impl]="$build/tools/mpicc/mpicc-build-tree" cc_post[$impl]=""
      else
        local lib="$build/framework/mpi/.libs"
        [ -f "$srcdir/framework/mpi/include/mpi.h" ] || { skipped[$impl]="no $srcdir/framework/mpi/include/mpi.h yet"; return; }
        ls "$lib"/libmpi.so* >/dev/null 2>&1 || { skipped[$impl]="libmpi is not built ($lib/libmpi.so missing)"; return; }
        cc_pre[$impl]="cc -I$srcdir/framework/mpi/include"
        cc_post[$impl]="-L$lib -Wl,-rpath,$lib -Wl,-rpath,$build/framework/.libs -lmpi"
      fi ;;
    openmpi|mpich)
      local cc=mpicc.$impl run=mpirun.$impl
      command -v "$cc" >/dev/null || { skipped[$impl]="$cc not found"; return; }
      command -v "$run" >/dev/null || { skipped[$impl]="$run not found"; return; }
      cc_pre[$impl]=$cc cc_post[$impl]="" ;;
  esac
}

# set_launcher IMPL NRANKS: the launcher command in the array $launcher. Up to one rank per core
# the ranks are bound one per core; oversubscribed runs are not bound (binding 4 or 8 ranks to 2
# cores only pins partners onto one core).
binding() { [ "$1" -le "$ncores" ] && echo core || echo none; }
set_launcher() {
  local bind
  bind=$(binding "$2")
  case $1 in
    plexus) launcher=("$plexrun" -n "$2" --bind-to "$bind") ;;
    openmpi)
      # shellcheck disable=SC2206  # $ompi_mca is several words on purpose
      launcher=(mpirun.openmpi --allow-run-as-root --oversubscribe $ompi_mca -n "$2" --bind-to "$bind") ;;
    mpich) launcher=(mpirun.mpich -n "$2" -bind-to "$bind") ;;
  esac
}
launch_flags() {
  case $1 in
    plexus) echo "plexrun -n N --bind-to core (N <= $ncores) / none (N > $ncores)" ;;
    openmpi) echo "mpirun.openmpi --allow-run-as-root --oversubscribe $ompi_mca -n N --bind-to core (N <= $ncores) / none (N > $ncores)" ;;
    mpich) echo "mpirun.mpich -n N -bind-to core (N <= $ncores) / none (N > $ncores)" ;;
  esac
}

# prepare_impls LIST BUILD_FN WHAT: for each implementation in LIST, finds its compiler and runs
# BUILD_FN IMPL (which sets skipped[IMPL] when it fails), then says how it was built (WHAT: the
# main source) and launched, or why it is skipped. Sets active to those left; exits when none is.
prepare_impls() {
  local impl build_fn=$2 what=$3
  active=''
  for impl in ${1//,/ }; do
    find_compiler "$impl"
    [ -z "${skipped[$impl]:-}" ] && "$build_fn" "$impl"
    if [ -n "${skipped[$impl]:-}" ]; then
      echo "skipping $(label "$impl"): ${skipped[$impl]}"
    else
      active="$active $impl"
      echo "$(label "$impl"): built with: ${cc_pre[$impl]} -O2 $what ...${cc_post[$impl]:+ ${cc_post[$impl]}}"
      echo "  run as: $(launch_flags "$impl")"
    fi
  done
  [ -n "$active" ] || { echo "run.sh: no implementation left to run" >&2; exit 1; }
}

# The machine may be shared: before each run, wait (at most $quiet_wait s, and $quiet_total s in
# all) until the other processes leave the CPUs idle, and count the runs that had to start on a
# busy machine anyway.
cpu_busy_percent() {  # busy share of all CPUs over 0.3 s, in percent
  local a b
  read -r -a a </proc/stat; sleep 0.3; read -r -a b </proc/stat
  local idle=$(( (b[4] + b[5]) - (a[4] + a[5]) )) total=0 i
  for i in 1 2 3 4 5 6 7 8; do total=$(( total + b[i] - a[i] )); done
  [ "$total" -gt 0 ] && echo $(( 100 * (total - idle) / total )) || echo 0
}
busy_runs=0 all_runs=0 worst_busy=0 waited=0
wait_quiet() {
  local start now busy
  start=$(date +%s)
  while busy=$(cpu_busy_percent); now=$(date +%s); [ "$busy" -gt 10 ] &&
        [ $((now - start)) -lt "$quiet_wait" ] && [ $((waited + now - start)) -lt "$quiet_total" ]; do
    sleep 1
  done
  waited=$((waited + now - start))
  all_runs=$((all_runs + 1))
  if [ "$busy" -gt 10 ]; then
    busy_runs=$((busy_runs + 1))
    [ "$busy" -gt "$worst_busy" ] && worst_busy=$busy
  fi
}
quiet_summary() {
  if [ "$busy_runs" -gt 0 ]; then
    echo "WARNING: $busy_runs of $all_runs runs started while other processes kept the CPUs busy" \
      "(up to ${worst_busy}% busy; waited ${waited} s in all for quiet): those numbers may be noisy."
  else
    echo "All $all_runs runs started on an idle machine (other processes below 10% CPU)."
  fi
}
