#!/bin/sh
# The profiling interface (MPI-2.2 chapter 14, docs/mpi-api.md) holds for the whole of mpi.h:
# - mpi.h's PMPI_ block is what config/pmpi_prototypes.sh makes of its MPI_ prototypes (and the
#   script, rerun after a prototype is added, brings it up to date and then changes nothing);
# - libmpi.so defines every PMPI_ name (T) and exports the MPI_ name as a weak alias (W) at the
#   same address, and defines no MPI_ function strongly;
# - no object of libmpi refers to an MPI_ function (an undefined symbol or a relocation against
#   one), so calls inside the library never reach a tool's wrapper. The check is first shown to
#   catch such a reference in two small objects built for the purpose.
set -u
. "$PLEXUS_TOP_SRCDIR/tests/lib/checks.sh"
src=$PLEXUS_TOP_SRCDIR build=$PLEXUS_TOP_BUILDDIR
header=$src/framework/mpi/include/mpi.h
script=$src/config/pmpi_prototypes.sh
libmpi=$build/framework/mpi/.libs/libmpi.so

check "mpi.h's PMPI_ block is up to date (else run config/pmpi_prototypes.sh)" sh "$script" --check "$header"

# The script on a copy with a new two-line prototype: --check sees the block stale, a run brings
# it up to date with the continuation line still aligned, a second run changes nothing.
copy=$work/mpi.h
sed 's|^int MPI_Pcontrol(|int MPI_Pmpi_test(MPI_Comm comm,\n                 int level);\n&|' "$header" >"$copy"
run stale sh "$script" --check "$copy"
expect_status 1
expect_contains "> int PMPI_Pmpi_test(MPI_Comm comm,"
run regenerate sh "$script" "$copy"
expect_status 0
expect_count "$copy" 1 '^int PMPI_Pmpi_test\(MPI_Comm comm,$'
expect_count "$copy" 1 '^                  int level\);$'
cp "$copy" "$work/mpi.h.once"
run rerun sh "$script" "$copy"
expect_status 0
check "a second run of pmpi_prototypes.sh changes nothing" cmp "$copy" "$work/mpi.h.once"

# The functions: the PMPI_ block's names (the block being current, these are mpi.h's MPI_ ones).
sed -n '/^\/\* BEGIN PMPI/,/^\/\* END PMPI/s/^[A-Za-z].*[ *]PMPI_\([A-Za-z0-9_]*\)(.*/\1/p' "$header" \
  >"$work/names"
count=$(wc -l <"$work/names")
check "the PMPI_ block names the functions of mpi.h ($count)" test "$count" -ge 150
check "MPI_Pcontrol is among them" grep -qx Pcontrol "$work/names"

nm -D --defined-only "$libmpi" >"$work/dynamic" || fail "nm -D cannot read $libmpi"
awk 'NR == FNR { type[$3] = $2; addr[$3] = $1; next }
     { p = "PMPI_" $1; m = "MPI_" $1
       if (type[p] != "T") print p " is not defined in libmpi.so (nm: " ((p in type) ? type[p] : "absent") ")"
       else if (type[m] != "W") print m " is not a weak symbol of libmpi.so (nm: " ((m in type) ? type[m] : "absent") ")"
       else if (addr[m] != addr[p]) print m " is not at the address of " p }' \
  "$work/dynamic" "$work/names" >"$work/alias_problems"
check "every MPI_ function of mpi.h is a weak alias of its PMPI_ twin in libmpi.so$(sed 's/^/; /' "$work/alias_problems" | tr -d '\n')" \
  test ! -s "$work/alias_problems"
strong=$(awk '$2 == "T" && $3 ~ /^MPI_/ { printf " %s", $3 }' "$work/dynamic")
check "libmpi.so defines no MPI_ function strongly (PLEXUS_MPI_ALIAS missing for:$strong)" test -z "$strong"

# references OBJECT...: each MPI_ name an object refers to, as "object: name" (undefined symbols
# and relocations; the alias itself is a symbol definition, not a reference). One nm and one
# objdump for every object: six processes per object took 20 s of a 2-core machine.
references() {
  { nm -A -u "$@" | awk '$NF ~ /^MPI_/ { f = $1; sub(/:$/, "", f); print f ": " $NF }'
    objdump -r "$@" | awk '/: +file format / { f = $1; sub(/:$/, "", f); next }
                           $3 ~ /^MPI_/ { n = $3; sub(/[-+].*/, "", n); print f ": " n }'
  } | sed 's|^[^:]*/||' | sort -u
}

# The check catches a call through an MPI_ name, within one file (a relocation against the alias)
# and across files (an undefined symbol), and passes the same calls made through PMPI_ names.
cxx=${CXX:-g++}
cat >"$work/calls.cc" <<'EOF'
#include "mpi.h"
#include "mpi/api/profiling.h"
extern "C" {
PLEXUS_MPI_ALIAS(Comm_size)
int PMPI_Comm_size(MPI_Comm, int *size) { *size = 1; return MPI_SUCCESS; }
PLEXUS_MPI_ALIAS(Comm_rank)
int PMPI_Comm_rank(MPI_Comm comm, int *rank) { *rank = 0; return PREFIX_Comm_size(comm, rank); }
int plexus_pmpi_test(MPI_Comm comm) { return PREFIX_Barrier(comm); }
}
EOF
for prefix in MPI PMPI; do
  check "a test object calling ${prefix}_ names compiles" $cxx -std=c++17 -O2 -fPIC -g -DPREFIX_Comm_size=${prefix}_Comm_size \
    -DPREFIX_Barrier=${prefix}_Barrier -I"$src/framework/mpi/include" -I"$src/framework" \
    -c "$work/calls.cc" -o "$work/calls_$prefix.o"
done
references "$work/calls_MPI.o" >"$work/planted"
expect_line "$work/planted" "calls_MPI.o: MPI_Comm_size"
expect_line "$work/planted" "calls_MPI.o: MPI_Barrier"
expect_count "$work/planted" 2 .
references "$work/calls_PMPI.o" >"$work/clean"
expect_count "$work/clean" 0 .

# libmpi's objects: the PIC object behind each libtool object of libmpi and libmpi_base.
objects=$(find "$build/framework/mpi" \( -name 'libmpi_la-*.lo' -o -name 'libmpi_base_la-*.lo' \) |
  while read -r lo; do
    pic=$(sed -n "s/^pic_object='\(.*\)'\$/\1/p" "$lo")
    [ -n "$pic" ] && [ "$pic" != none ] && printf '%s\n' "$(dirname "$lo")/$pic"
  done)
nobj=$(printf '%s\n' $objects | grep -c .)
check "libmpi's objects found ($nobj)" test "$nobj" -ge 50
references $objects >"$work/internal"
check "no object of libmpi calls an MPI_ function (calls inside the library go to PMPI_ names)$(sed 's/^/; /' "$work/internal" | tr -d '\n')" \
  test ! -s "$work/internal"
finish
