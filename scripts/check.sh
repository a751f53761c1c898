#!/bin/bash
# Builds Plexus and runs every test once: a static-components build (its one test), the sanitizer
# build (AddressSanitizer + UBSan) running most of the suite, and make distcheck, which builds the
# release tarball out of tree without sanitizers, runs the rest of the suite there (the build
# checks, the pt2pt variant configurations, the launcher/Slurm/third-party scripts and the spawn
# loops: see split_suite), installs it and runs make installcheck (the SDK test: a component built
# against the installed SDK). The main tree is only configured, for distcheck.
# Ends with one line "N passed, N failed, N skipped".
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
jobs=${PLEXUS_JOBS:-$(nproc)}
logs="$top/build/logs"
passed=0 failed=0 skipped=0

"$top/scripts/install-deps.sh" || { echo "0 passed, 1 failed"; exit 1; }
mkdir -p "$logs"

# step NAME LOG CMD...: runs a build step; a failed step counts as a failed test.
step() {
  local name=$1 log=$2; shift 2
  echo "== $name"
  local t0=$SECONDS
  if "$@" >"$log" 2>&1; then echo "   ($((SECONDS - t0)) s)"; return 0; fi
  echo "FAIL: $name (see $log)"; tail -25 "$log"
  failed=$((failed + 1))
  return 1
}
# show_failed_logs LOG DIR: prints the end of each failed case's own log (the harness keeps it
# beside the test in the build directory DIR), so that a flake can be read from CI's output.
show_failed_logs() {
  local log=$1 dir t shown=0
  dir=$(echo $2)  # a glob (the distcheck tree's name has the version)
  for t in $(sed -n 's/^\(FAIL\|ERROR\): \([^ ]*\).*/\2/p' "$log" | sort -u); do
    [ $shown -lt 5 ] && [ -f "$dir/${t%.*}.log" ] || continue
    echo "---- $t (last 30 lines of ${t%.*}.log)"
    tail -30 "$dir/${t%.*}.log" | "$top/tests/lib/symbolize.sh"
    shown=$((shown + 1))
  done
}
# slowest DIR: the ten test scripts and binaries of a finished suite in DIR that took longest
# (seconds from the log's creation to the result file's last write), so that CI's output shows
# where its time goes. Prints nothing where the file system keeps no creation time.
slowest() {
  local dir
  dir=$(echo $1)  # a glob (the distcheck tree's name has the version)
  [ -d "$dir" ] || return 0
  find "$dir" -name '*.trs' -printf '%p\n' | while read -r trs; do
    log=${trs%.trs}.log
    [ -f "$log" ] || continue
    born=$(stat -c %W "$log"); done_at=$(stat -c %Y "$trs")
    [ "$born" -gt 0 ] && echo "$((done_at - born)) ${log#"$dir"/}"
  done | sort -rn | head -10 | awk '{printf "   %5d s  %s\n", $1, $2}' |
    sed '1i\   slowest:'
}
# Adds a harness summary (# PASS: N ...) to the totals.
count_suite() {  # count_suite LOG BUILDDIR
  local log=$1 p f e s
  p=$(sed -n 's/^# PASS: *//p' "$log" | tail -1); f=$(sed -n 's/^# FAIL: *//p' "$log" | tail -1)
  e=$(sed -n 's/^# ERROR: *//p' "$log" | tail -1); s=$(sed -n 's/^# SKIP: *//p' "$log" | tail -1)
  grep -E '^(FAIL|ERROR):' "$log" | head -40
  show_failed_logs "$log" "$2"
  echo "   ${p:-0} passed, $(( ${f:-0} + ${e:-0} )) failed, ${s:-0} skipped"
  slowest "$2"
  passed=$((passed + ${p:-0})); failed=$((failed + ${f:-0} + ${e:-0})); skipped=$((skipped + ${s:-0}))
}
# Adds PASS:/FAIL: lines of a script to the totals.
count_lines() {
  local log=$1 p f
  p=$(grep -c '^PASS: ' "$log"); f=$(grep -c '^FAIL: ' "$log")
  grep '^FAIL: ' "$log"
  passed=$((passed + p)); failed=$((failed + f))
}
# Adds installcheck's checks ("PASS: sdk: ...", "FAIL: mpicc: ...", tests/lib/checks.sh) to the
# totals; the harness's own lines name a test by its path ("PASS: tests/..."), never "word: ".
count_installcheck() {
  local log=$1 p f
  p=$(grep -cE '^PASS: [A-Za-z0-9_.-]+: ' "$log"); f=$(grep -cE '^FAIL: [A-Za-z0-9_.-]+: ' "$log")
  grep -E '^FAIL: [A-Za-z0-9_.-]+: ' "$log"
  echo "   installcheck: $p passed, $f failed"
  passed=$((passed + p)); failed=$((failed + f))
}
# split_suite BUILDDIR: the tests that run without sanitizers, in make distcheck (the rest run
# under them), one per line. There: the build checks (tests/build/: the header, symbols, glue and
# bench scripts, which sanitizers do not change), the pt2pt suite's variant configurations (the
# same programs as the default one with a BTL or protocol forced), the launcher, Slurm and
# third-party scripts (daemons and many short processes, where the sanitizers' start-up cost is
# most of the time), the spawn loops (hundreds of cycles of the path each single-spawn case runs
# under the sanitizers) and the coll_shm_inter variants that run the collective suites again over
# other placements (more ranks, fake nodes, single copy for every size, the pair and union paths:
# a third of the sanitizer suite's time; coll_shm_intra/inter, their forced, copy and two-level
# inter runs and the engine's unit tests stay under the sanitizers), coll_intra on a node that is
# not oversubscribed (the same calls, auto choosing otherwise) and the datagram loss rates below
# 50 % (the paths dpm-ud-loss50 runs, less often). Every test runs once: 40 minutes is the
# budget for all of it.
unsanitized='^tests/(build|launcher|slurm|multinode|dpm3p)/|^tests/mpi/(no-fastbox|self-sm|no-single-copy|cma-always|tcp)/|/dpm_(spawn|tcp)_loop\.sh$'
unsanitized+='|^tests/mpi/default/coll_shm_(intra_(nodes|forced_3|2|copy_nodes)|inter_(root_copy|copy|pair|copy_nodes|union|forced_3))\.sh$'
unsanitized+='|^tests/mpi/default/coll_intra_not_oversubscribed\.sh$|^tests/mpi/(dpm-ud-loss(10|30)|dpm-rc-loss30)/'
split_suite() {  # split_suite BUILDDIR sanitized|unsanitized
  local sel=-vE
  [ "$2" = unsanitized ] && sel=-E
  make -s -C "$1" list-tests | grep $sel "$unsanitized" | tr '\n' ' '
}
# check_programs_for BUILDDIR TESTS...: the check programs the given tests need: every one but the
# GoogleTest programs (each itself a test) that are not among them. make check builds every check
# program whatever TESTS says; make distcheck's tree, given this, skips the 100-odd GoogleTest
# programs that run under the sanitizers instead (half of its compile time).
check_programs_for() {
  local dir=$1; shift
  local all selected
  all=$(make -s -C "$dir" list-check-programs)
  selected=$(printf '%s\n' "$@")
  make -s -C "$dir" list-tests | grep -Fx -f <(echo "$all") | grep -vFx -f <(echo "$selected") |
    grep -vFx -f - <(echo "$all") | tr '\n' ' '
}
configure_in() {  # configure_in DIR ARGS...
  local dir=$1; shift
  mkdir -p "$dir" && cd "$dir" && "$top/configure" "$@"
}

cd "$top"
if step autogen "$logs/autogen.log" ./autogen.sh; then
  # 1. The main tree, configured only (make distcheck below builds from it).
  main="$top/build/main"
  step "configure" "$logs/configure.log" configure_in "$main" --prefix="$main/_inst" \
    --disable-dependency-tracking
  # 2. Components linked into libplexus, found through the same repository. Only what
  #    tests/build/static_components.sh looks at is built: the other real components are left out
  #    (which also exercises --enable-mca-no-build on them). -O0 without debug information: its
  #    test reads plexus_info's listing, and this compiles three times faster than -O2 -g.
  static="$top/build/static"
  unneeded=btl-tcp,btl-openib,coll-shm_inter,osc-rdma,osc-sm,dpm-pmix,dpm-ud
  if step "static build" "$logs/static.log" bash -c "
      $(declare -f configure_in); top='$top'
      configure_in '$static' --enable-mca-static=btl-good,dpm-good \
        --enable-mca-no-build=coll-good,$unneeded --disable-boost-dll \
        --disable-dependency-tracking CFLAGS=-O0 CXXFLAGS=-O0 &&
      make -j$jobs tools/plexus_info/plexus_info build-tree-plugins"; then
    PLEXUS_TOP_BUILDDIR="$static" bash "$top/tests/build/static_components.sh" >"$logs/static-test.log" 2>&1
    count_lines "$logs/static-test.log"
  fi
  # 3. AddressSanitizer + UBSan over the suite but what split_suite leaves to distcheck; line
  #    tables only (--enable-debug=lines: stack traces keep functions and lines, the build is a
  #    third faster); the benchmarks' programs are distcheck's to build (--disable-bench). The
  #    build step builds the test programs too (make check with no test), so that each step's
  #    time says what it did.
  asan="$top/build/asan"
  if step "sanitizer build" "$logs/asan-build.log" bash -c "
      $(declare -f configure_in); top='$top'
      configure_in '$asan' --enable-debug=lines --disable-dependency-tracking \
        --disable-bench && make -j$jobs && make -j$jobs check TESTS="; then
    echo "== make check (sanitizers)"
    t0=$SECONDS
    ASAN_OPTIONS=detect_leaks=1 make -C "$asan" -j"$jobs" check \
      TESTS="$(split_suite "$asan" sanitized)" >"$logs/asan-check.log" 2>&1
    echo "   ($((SECONDS - t0)) s)"
    count_suite "$logs/asan-check.log" "$asan"
  fi
  # 4. The release tarball builds (-O1 without debug information: its optimizer still runs, and its
  #    C++ test files compile a third faster than at -O2, where the build was half of the step), passes
  #    the rest of the suite (counted here), installs, passes installcheck (counted here) and
  #    uninstalls cleanly. TESTS and check_PROGRAMS (only the programs those tests need) reach the
  #    tarball's make check through MAKEFLAGS. (Compiling it beside the sanitizer suite at nice 19
  #    was tried: the suite took 22 % longer and the whole run 2 minutes more.)
  if [ -f "$main/Makefile" ]; then
    echo "== make distcheck (the release tarball; the tests that run without sanitizers)"
    t0=$SECONDS
    tests=$(split_suite "$main" unsanitized)
    # shellcheck disable=SC2086 # one test a word
    programs=$(check_programs_for "$main" $tests)
    if make -C "$main" -j"$jobs" distcheck TESTS="$tests" check_PROGRAMS="$programs" \
        DISTCHECK_CONFIGURE_FLAGS="--disable-debug --disable-dependency-tracking CFLAGS=-O1 CXXFLAGS=-O1" \
        >"$logs/distcheck.log" 2>&1; then
      echo "   ($((SECONDS - t0)) s)"
      count_suite "$logs/distcheck.log" "$main/plexus-*/_build/sub"
      count_installcheck "$logs/distcheck.log"
      echo "PASS: make distcheck"; passed=$((passed + 1))
    else
      failed_before=$failed
      count_suite "$logs/distcheck.log" "$main/plexus-*/_build/sub"
      count_installcheck "$logs/distcheck.log"
      echo "FAIL: make distcheck (see $logs/distcheck.log)"; tail -25 "$logs/distcheck.log"
      # A failed case already counts; a distcheck that broke elsewhere counts once.
      [ "$failed" -gt "$failed_before" ] || failed=$((failed + 1))
    fi
  fi
fi

echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
