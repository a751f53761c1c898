#!/bin/sh
# Installs the Debian 12 packages Plexus builds, tests and benchmarks with (skips when present).
# Slurm and munge are optional: the tests that need them say so and are skipped when they could
# not be installed; their daemons are never started by the packages' install here (the tests
# start private ones).
set -eu
packages="build-essential autoconf automake libtool libtool-bin pkg-config
  libltdl-dev libhwloc-dev libboost-dev libboost-filesystem-dev libpmix-dev libpmix-bin
  libibverbs-dev librdmacm-dev libssl-dev googletest libgtest-dev libgmock-dev libbenchmark-dev
  nlohmann-json3-dev openmpi-bin libopenmpi-dev mpich libmpich-dev gnuplot-nox valgrind"
optional="slurm-wlm slurm-wlm-basic-plugins munge"
missing_of() {
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || printf ' %s' "$p"
  done
}
# shellcheck disable=SC2086
missing=$(missing_of $packages) missing_optional=$(missing_of $optional)
[ -z "$missing$missing_optional" ] && exit 0
sudo=; [ "$(id -u)" -eq 0 ] || sudo=sudo
$sudo apt-get update -qq
if [ -n "$missing" ]; then
  echo "installing:$missing"
  # shellcheck disable=SC2086
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq $missing >/dev/null
fi
if [ -n "$missing_optional" ]; then
  echo "installing (optional, for the Slurm tests):$missing_optional"
  # shellcheck disable=SC2086
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq $missing_optional >/dev/null ||
    echo "could not install$missing_optional: the Slurm tests will be skipped"
fi
