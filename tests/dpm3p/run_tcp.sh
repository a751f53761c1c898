#!/bin/sh
# The dpm3p programs (README.md) over btl self,tcp alone: join above all, whose rank 0 sends a
# port number with MPI_Send and then blocks in accept(), which only works when that first send
# over tcp completes its connection before it returns (components/btl_tcp/README.md, "On first
# use"); then the programs whose jobs meet over tcp (a spawn, connect/accept, a merge, a
# disconnect). The spawn loops and the info-key programs, which tcp changes nothing for, run
# with btl sm only (run.sh under make check).
#
#   tests/dpm3p/run_tcp.sh [--builddir DIR] [PROG...]
set -u
here=$(cd "$(dirname "$0")" && pwd)
if [ "${1:-}" = --builddir ]; then
  [ $# -ge 2 ] || { echo "--builddir needs DIR" >&2; exit 2; }
  PLEXUS_TOP_BUILDDIR=$2
  export PLEXUS_TOP_BUILDDIR
  shift 2
fi
[ $# -gt 0 ] || set -- join selfconacc spawn1 spawnintra disconnect concurrent_spawns
exec sh "$here/run.sh" --mca btl self,tcp "$@"
