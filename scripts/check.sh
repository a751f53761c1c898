#!/bin/bash
# Builds Plexus and runs every test: unit and command-line tests (make check), the SDK test
# after install (make installcheck), a static-components build, the sanitizer build of the whole
# suite, and make distcheck. Ends with one line "N passed, N failed, N skipped".
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
  if "$@" >"$log" 2>&1; then return 0; fi
  echo "FAIL: $name (see $log)"; tail -25 "$log"
  failed=$((failed + 1))
  return 1
}
# Adds a harness summary (# PASS: N ...) to the totals.
count_suite() {
  local log=$1 p f e s
  p=$(sed -n 's/^# PASS: *//p' "$log" | tail -1); f=$(sed -n 's/^# FAIL: *//p' "$log" | tail -1)
  e=$(sed -n 's/^# ERROR: *//p' "$log" | tail -1); s=$(sed -n 's/^# SKIP: *//p' "$log" | tail -1)
  grep -E '^(FAIL|ERROR):' "$log" | head -40
  echo "   ${p:-0} passed, $(( ${f:-0} + ${e:-0} )) failed, ${s:-0} skipped"
  passed=$((passed + ${p:-0})); failed=$((failed + ${f:-0} + ${e:-0})); skipped=$((skipped + ${s:-0}))
}
# Adds PASS:/FAIL: lines of a script to the totals.
count_lines() {
  local log=$1 p f
  p=$(grep -c '^PASS: ' "$log"); f=$(grep -c '^FAIL: ' "$log")
  grep '^FAIL: ' "$log"
  passed=$((passed + p)); failed=$((failed + f))
}
configure_in() {  # configure_in DIR ARGS...
  local dir=$1; shift
  mkdir -p "$dir" && cd "$dir" && "$top/configure" "$@"
}

cd "$top"
if step autogen "$logs/autogen.log" ./autogen.sh; then
  # 1. The main build: unit tests, command-line tests, then the SDK after install.
  main="$top/build/main"
  if step "configure" "$logs/configure.log" configure_in "$main" --prefix="$main/_inst" &&
     step "build" "$logs/build.log" make -C "$main" -j"$jobs"; then
    echo "== make check"
    make -C "$main" -j"$jobs" check >"$logs/check.log" 2>&1
    count_suite "$logs/check.log"
    echo "== install + installcheck (component SDK)"
    rm -rf "$main/_inst"
    if step "make install" "$logs/install.log" make -C "$main" install; then
      make -C "$main" installcheck >"$logs/installcheck.log" 2>&1
      count_lines "$logs/installcheck.log"
    fi
  fi
  # 2. Components linked into libplexus, found through the same repository.
  static="$top/build/static"
  if step "static build" "$logs/static.log" bash -c "
      $(declare -f configure_in); top='$top'
      configure_in '$static' --enable-mca-static=btl-good,dpm-good --enable-mca-no-build=coll-good \
        --disable-boost-dll && make -j$jobs"; then
    PLEXUS_TOP_BUILDDIR="$static" bash "$top/tests/build/static_components.sh" >"$logs/static-test.log" 2>&1
    count_lines "$logs/static-test.log"
  fi
  # 3. AddressSanitizer + UBSan over the whole suite.
  asan="$top/build/asan"
  if step "sanitizer build" "$logs/asan-build.log" bash -c "
      $(declare -f configure_in); top='$top'
      configure_in '$asan' --enable-debug && make -j$jobs"; then
    echo "== make check (sanitizers)"
    ASAN_OPTIONS=detect_leaks=1 make -C "$asan" -j"$jobs" check >"$logs/asan-check.log" 2>&1
    count_suite "$logs/asan-check.log"
  fi
  # 4. The release tarball builds, tests, installs and uninstalls cleanly.
  if [ -d "$main" ]; then
    if step "make distcheck" "$logs/distcheck.log" make -C "$main" -j"$jobs" distcheck; then
      echo "PASS: make distcheck"; passed=$((passed + 1))
    fi
  fi
fi

echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
