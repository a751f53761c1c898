#!/bin/sh
# Run by make installcheck: the installed mpicc, mpicxx and mpic++ compile and link an MPI
# program against the installed mpi.h and libmpi alone, --showme and its variants say what they
# run, and PLEXUS_MPICC / PLEXUS_MPICXX replace the compiler.
# Usage: mpicc_installed.sh PREFIX LIBDIR INCLUDEDIR
set -u
prefix=$1 libdir=$2 includedir=$3
. "$(dirname "$0")/../lib/checks.sh"
bindir=$prefix/bin

cat >"$work/hello.c" <<'CEOF'
#include <mpi.h>
#include <stdio.h>
int main(int argc, char **argv) {
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    printf("hello from %d of %d\n", rank, size);
    return MPI_Finalize();
}
CEOF
cp "$work/hello.c" "$work/hello.cc"

for w in mpicc mpicxx mpic++; do
  check "mpicc: $w is installed and executable" test -x "$bindir/$w"
done

run showme "$bindir/mpicc" --showme "$work/hello.c" -o "$work/x"
expect_status 0
expect_contains "-I$includedir"
expect_contains "-L$libdir"
expect_contains "-lmpi"
expect_contains "$work/hello.c -o $work/x"
run showme_compile "$bindir/mpicc" --showme:compile
expect_line "-I$includedir"
run showme_link "$bindir/mpicc" --showme:link
expect_contains "-L$libdir -lmpi"
run showme_c_only "$bindir/mpicc" --showme -c "$work/hello.c"
expect_not_contains "-lmpi"
run showme_version "$bindir/mpicc" --showme:version
expect_contains "Plexus"
run showme_bad "$bindir/mpicc" --showme:nonsense
expect_status 2
expect_contains "unknown option '--showme:nonsense'"
run showme_env env PLEXUS_MPICC=my-cc "$bindir/mpicc" --showme "$work/hello.c"
expect_contains "my-cc -I$includedir"
run showme_envxx env PLEXUS_MPICXX=my-cxx "$bindir/mpicxx" --showme:command
expect_line "my-cxx"

run cc "$bindir/mpicc" -Wall -Wextra -Werror "$work/hello.c" -o "$work/hello_c"
expect_status 0
run cxx "$bindir/mpicxx" -Wall -Wextra -Werror "$work/hello.cc" -o "$work/hello_cxx"
expect_status 0
run cxx_alias "$bindir/mpic++" -c "$work/hello.cc" -o "$work/hello.o"
expect_status 0
# The program finds libmpi without LD_LIBRARY_PATH (rpath, or a system folder) and runs alone.
run -t 60 hello_runs env -u LD_LIBRARY_PATH "$work/hello_c"
expect_status 0
expect_line "hello from 0 of 1"
run -t 60 hello_cxx_runs env -u LD_LIBRARY_PATH "$work/hello_cxx"
expect_status 0
expect_line "hello from 0 of 1"
finish
