#!/bin/sh
# Installs the Debian 12 packages Plexus builds, tests and benchmarks with (skips when present).
set -eu
packages="build-essential autoconf automake libtool libtool-bin pkg-config
  libltdl-dev libhwloc-dev libboost-dev libboost-filesystem-dev libpmix-dev libpmix-bin
  libibverbs-dev librdmacm-dev googletest libgtest-dev libgmock-dev libbenchmark-dev
  nlohmann-json3-dev openmpi-bin libopenmpi-dev mpich libmpich-dev gnuplot-nox valgrind"
missing=
for p in $packages; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
echo "installing:$missing"
sudo=; [ "$(id -u)" -eq 0 ] || sudo=sudo
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq $missing >/dev/null
