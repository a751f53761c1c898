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
# Extra Plexus launcher arguments and MPICH environment (use_tcp_paths sets both).
plexus_mca=""
mpich_env=()
declare -A cc_pre cc_post skipped

# use_tcp_paths: every implementation moves bytes over TCP sockets, even between ranks of one host
# (Plexus btl tcp,self; Open MPI btl tcp,self; MPICH's ch4:ucx with every peer taken as remote
# (MPIR_CVAR_NOLOCAL) and UCX's tcp transport only).
use_tcp_paths() {
  plexus_mca="--mca btl tcp,self"
  ompi_mca="--mca pml ob1 --mca btl tcp,self"
  mpich_env=(MPIR_CVAR_NOLOCAL=1 UCX_TLS=tcp,self)
}

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
    # shellcheck disable=SC2206  # $plexus_mca is several words on purpose
    plexus) launcher=("$plexrun" $plexus_mca -n "$2" --bind-to "$bind") ;;
    openmpi)
      # shellcheck disable=SC2206  # $ompi_mca is several words on purpose
      launcher=(mpirun.openmpi --allow-run-as-root --oversubscribe $ompi_mca -n "$2" --bind-to "$bind") ;;
    mpich) launcher=(env "${mpich_env[@]}" mpirun.mpich -n "$2" -bind-to "$bind") ;;
  esac
}
launch_flags() {
  case $1 in
    plexus) echo "plexrun ${plexus_mca:+$plexus_mca }-n N --bind-to core (N <= $ncores) / none (N > $ncores)" ;;
    openmpi) echo "mpirun.openmpi --allow-run-as-root --oversubscribe $ompi_mca -n N --bind-to core (N <= $ncores) / none (N > $ncores)" ;;
    mpich) echo "${mpich_env[*]:+${mpich_env[*]} }mpirun.mpich -n N -bind-to core (N <= $ncores) / none (N > $ncores)" ;;
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

# The virtual machine's host can take CPU time from the guest without any load showing in
# /proc/stat: for minutes at a time every implementation's small-message latency then triples.
# host_probe (bench/lib/host_probe.c) times a cache line bounced between two CPUs, which slows down
# with them: here about 55 ns one way, 260-450 ns when the host is disturbed, and now and then
# 20 ns (which leaves MPI latencies as they are). A probe over $host_factor times the usual one
# (the lower quartile of the probes taken so far before, after and between runs, so that neither
# the 20 ns probes nor a long disturbance moves it) means a disturbed host: wait_quiet waits for it
# to pass (at most $host_wait s per run, $host_total s in all), and a runner that calls
# run_disturbed after a run runs it again (at most $host_reruns runs in all). Every probe goes to
# RESULTS/raw/host_probe.tsv.
host_factor=${host_factor:-3.5} host_wait=${host_wait:-60} host_total=${host_total:-600} host_reruns=${host_reruns:-8}
host_poll=${host_poll:-2}  # seconds between probes while waiting
host_usual='' probe_ns='' host_log=/dev/null
host_waited=0 host_rerun=0 host_kept_disturbed=0

# setup_host_probe RAW_DIR: builds the probe and takes five probes to start from.
setup_host_probe() {
  host_log="$1/host_probe.tsv"
  printf 'time\twhat\tone_way_ns\n' >"$host_log"
  if ! cc -O2 -pthread -o "$work/host_probe" "$srcdir/bench/lib/host_probe.c" >"$1/build-host_probe.log" 2>&1; then
    echo "host probe not built ($1/build-host_probe.log): runs on a disturbed host will not be noticed"
    return
  fi
  local i
  for i in 1 2 3 4 5; do probe_host calibrate; done
  [ -n "$host_usual" ] && echo "host probe: a cache line takes about ${host_usual} ns between two CPUs" \
    "(a run is redone when it takes over ${host_factor} times the usual probe)"
}

# probe_host WHAT: one probe into $probe_ns (empty when it cannot run), logged; updates $host_usual,
# the usual probe.
probe_host() {
  probe_ns=''
  [ -x "$work/host_probe" ] || return 0
  probe_ns=$("$work/host_probe" 2>/dev/null) || { probe_ns=''; return 0; }
  printf '%s\t%s\t%s\n' "$(date +%T)" "$1" "$probe_ns" >>"$host_log"
  host_usual=$(awk -F'\t' 'NR > 1 && $2 !~ /^waiting/ { print $3 }' "$host_log" | sort -g |
    awk '{ v[NR] = $1 } END { if (NR) print v[int((NR + 3) / 4)] }')
}

host_disturbed() {  # true when the last probe was over $host_factor times the usual
  [ -n "$probe_ns" ] && [ -n "$host_usual" ] &&
    awk -v a="$probe_ns" -v b="$host_usual" -v f="$host_factor" 'BEGIN { exit !(a > f * b) }'
}

busy_runs=0 all_runs=0 worst_busy=0 waited=0
# wait_quiet LABEL: before the run LABEL, wait for idle CPUs, then for a quiet host.
wait_quiet() {
  local start now busy label=${1:-run}
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
  start=$(date +%s) now=$start
  probe_host "before $label"
  host_disturbed || return 0
  echo "  host disturbed before $label (cache line ${probe_ns} ns, usual ${host_usual}): waiting up to ${host_wait} s"
  while host_disturbed && [ $((now - start)) -lt "$host_wait" ] && [ $((host_waited + now - start)) -lt "$host_total" ]; do
    sleep "$host_poll"
    probe_host "waiting $label"
    now=$(date +%s)
  done
  host_waited=$((host_waited + now - start))
  return 0
}

# run_disturbed LABEL: after the run LABEL, true when the host was disturbed at its end (or at its
# start) and reruns are left, so that the caller discards the run and runs it again.
run_disturbed() {
  local before=$probe_ns
  probe_host "after $1"
  host_disturbed || { probe_ns=$before; host_disturbed; } || return 1
  if [ "$host_rerun" -ge "$host_reruns" ]; then
    host_kept_disturbed=$((host_kept_disturbed + 1))
    echo "  host disturbed during $1 (cache line ${probe_ns} ns, usual ${host_usual}); no reruns left: kept"
    return 1
  fi
  host_rerun=$((host_rerun + 1))
  echo "  host disturbed during $1 (cache line ${probe_ns} ns, usual ${host_usual}): run again"
  return 0
}

# set_aside RAW_DIR NAME FILE...: moves the output of a run the host disturbed out of the way, to
# RAW_DIR/disturbed/NAME.K/ (K: 1 the first time NAME is set aside, then 2, ...).
set_aside() {
  local raw=$1 name=$2 k=1 f
  shift 2
  while [ -e "$raw/disturbed/$name.$k" ]; do k=$((k + 1)); done
  mkdir -p "$raw/disturbed/$name.$k"
  for f in "$@"; do [ -e "$f" ] && mv "$f" "$raw/disturbed/$name.$k/"; done
  return 0
}

quiet_summary() {
  if [ "$busy_runs" -gt 0 ]; then
    echo "WARNING: $busy_runs of $all_runs runs started while other processes kept the CPUs busy" \
      "(up to ${worst_busy}% busy; waited ${waited} s in all for quiet): those numbers may be noisy."
  else
    echo "All $all_runs runs started on an idle machine (other processes below 10% CPU)."
  fi
  [ -n "$host_usual" ] || return 0
  local slow
  slow=$(awk -F'\t' -v b="$host_usual" -v f="$host_factor" 'NR > 1 && $3 > f * b { n++ } END { print n + 0 }' "$host_log")
  echo "Host probe: usual ${host_usual} ns; ${slow} probes over ${host_factor} times that;" \
    "waited ${host_waited} s for the host, ${host_rerun} runs redone ($host_log)."
  [ "$host_kept_disturbed" -eq 0 ] ||
    echo "WARNING: ${host_kept_disturbed} runs were kept although the host was disturbed: compare their raw numbers before believing them."
}

# ---- shared by the runners' preambles --------------------------------------------------------------
# bench_results DIR: creates DIR/raw (emptied of an earlier run's files) and sets $results to DIR's
# absolute path; exits with a message when it cannot.
bench_results() {
  mkdir -p "$1/raw" || { echo "run.sh: cannot create $1" >&2; exit 1; }
  results=$(cd "$1" && pwd)
  rm -rf "${results:?}"/raw/*
}

# bench_workdir NAME: sets $work to a private temporary directory, removed on exit with every
# process still running from it (reap_strays); INT and TERM end the runner through that trap.
bench_workdir() {
  work=$(mktemp -d "${TMPDIR:-/tmp}/$1.XXXXXX") || { echo "run.sh: no temporary directory" >&2; exit 1; }
  trap 'reap_strays; rm -rf "$work"' EXIT
  trap 'exit 130' INT TERM
}

load_average() { cut -d' ' -f1-3 /proc/loadavg; }

# plexus_component FW NAME [PARAM]: true when the build's plexus_info finds component NAME of
# framework FW and it is not unusable (and, given PARAM, the component registers that parameter);
# otherwise false, with the reason on stdout in one line.
plexus_component() {
  local info="$build/tools/plexus_info/plexus_info" out state
  [ -x "$info" ] || { echo "no plexus_info in the build ($info) to ask"; return 1; }
  out=$("$info" --component "$1" "$2" 2>&1)
  if grep -q "^No component" <<<"$out"; then
    echo "component $1_$2 is not installed (plexus_info --component $1 $2 finds none)"
    return 1
  fi
  state=$(sed -n 's/^ *state: *//p' <<<"$out" | head -n1)
  case $state in
    '') echo "plexus_info --component $1 $2 said: $(head -n1 <<<"$out")"; return 1 ;;
    unusable*) echo "component $1_$2 is $state"; return 1 ;;
  esac
  if [ -n "${3:-}" ] && ! "$info" --param "$1" "$2" --level 9 2>/dev/null | grep -q "^ *$3 = "; then
    echo "component $1_$2 has no parameter $3 (an older version)"
    return 1
  fi
  return 0
}
