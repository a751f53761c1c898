#!/bin/sh
# mpi.h is usable as documented: the program that uses everything it declares
# (tests/build/mpi_header_use.c) names every function and MPI_ constant of the header, compiles
# warning-free with -Wall -Wextra -Werror -pedantic as C99, C11, C17 and C++11..C++20 (gcc and
# g++), libmpi defines every function mpi.h declares, and the program, built with the build-tree
# mpicc and mpicxx, runs as a singleton and passes its own checks.
set -u
. "$PLEXUS_TOP_SRCDIR/tests/lib/checks.sh"
src=$PLEXUS_TOP_SRCDIR build=$PLEXUS_TOP_BUILDDIR
header=$src/framework/mpi/include/mpi.h
use=$src/tests/build/mpi_header_use.c
libmpi=$build/framework/mpi/.libs/libmpi.so

functions=$(sed -n 's/^\(int\|double\) \(MPI_[A-Za-z_]*\)(.*/\2/p' "$header")
constants=$(sed -n 's/^#define \(MPI_[A-Z0-9_]*\).*/\1/p' "$header")
[ -n "$functions" ] && [ -n "$constants" ] || fail "no functions or constants found in $header"
# The program's MPI_ words, once, against every name (a grep per name took seconds).
printf '%s\n' $functions $constants | sort -u >"$work/declared"
grep -ow 'MPI_[A-Za-z0-9_]*' "$use" | sort -u >"$work/used"
unused=$(comm -23 "$work/declared" "$work/used" | tr '\n' ' ')
unused=${unused% }
[ -z "$unused" ] || fail "declared in mpi.h but not used by mpi_header_use.c: $unused"
echo "PASS: mpi_header_use.c uses all $(echo $functions | wc -w) functions and $(echo $constants | wc -w) constants"

flags="-Wall -Wextra -Werror -pedantic -I$src/framework/mpi/include"
for std in c99 c11 c17; do
  check "gcc -std=$std compiles mpi.h warning-free" gcc -std=$std $flags -c "$use" -o "$work/use.o"
done
for std in c++11 c++14 c++17 c++20; do
  check "g++ -std=$std compiles mpi.h warning-free" g++ -std=$std $flags -x c++ -c "$use" -o "$work/use.o"
done

nm -D --defined-only "$libmpi" | awk '$2 == "T" || $2 == "W" { print $3 }' | sort -u >"$work/defined"
missing=$(printf '%s\n' $functions | sort -u | comm -23 - "$work/defined" | tr '\n' ' ')
missing=${missing% }
check "libmpi.so defines every function mpi.h declares${missing:+ (missing:$missing)}" test -z "$missing"

run build_c "$build/tools/mpicc/mpicc-build-tree" -Wall -Wextra -Werror "$use" -o "$work/use_c"
expect_status 0
run -t 120 run_c "$work/use_c"
expect_status 0
expect_line "mpi_header_use: OK"
cp "$use" "$work/use.cc"
run build_cxx "$build/tools/mpicc/mpicxx-build-tree" -Wall -Wextra -Werror "$work/use.cc" -o "$work/use_cxx"
expect_status 0
run -t 120 run_cxx "$work/use_cxx"
expect_status 0
expect_line "mpi_header_use: OK"
finish
