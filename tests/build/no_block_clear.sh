#!/bin/sh
# No `rep stos` on the per-call paths. g++ clears a large aggregate built on the stack (a 200-byte
# Request, an array of 32 request handles) with `rep stos`, whose start-up cost 15-25 ns of a
# 130-160 ns collective at 2 ranks here (docs/point-to-point.md, "Requests on the stack"). The
# paths checked: the collective services and the PML's per-message functions in libmpi, the MPI
# point-to-point calls, and every collective of coll_basic (its set-up functions aside).
set -u
. "$PLEXUS_TOP_SRCDIR/tests/lib/checks.sh"
build=$PLEXUS_TOP_BUILDDIR
command -v objdump >/dev/null || { echo "SKIP: no objdump"; exit 77; }

# functions_with_block_clear LIB: one line per function of LIB that contains `rep stos`.
functions_with_block_clear() {
  objdump -d --no-show-raw-insn -C "$1" |
    awk '/^[0-9a-f]+ <.*>:$/ { fn = substr($0, index($0, "<")) } /rep stos/ { print fn }' | sort -u
}

libmpi=$build/framework/mpi/.libs/libmpi.so
coll_basic=$build/components/coll_basic/.libs/plexus_coll_basic.so
[ -f "$libmpi" ] || fail "no $libmpi"
[ -f "$coll_basic" ] || fail "no $coll_basic"
# --enable-debug builds at -O0 with the sanitizers: another compiler output than the one shipped.
if nm -D --undefined-only "$libmpi" 2>/dev/null | grep -q ' __asan_'; then
  echo "SKIP: a debug build (-O0, sanitizers); this test is about the optimized code"
  exit 77
fi

hot_mpi='coll::\(anonymous namespace\)::(send|recv|sendrecv|isend|irecv|wait|waitall|start_nonblocking)\(|Pml::Impl::(start_send|start_recv|progress|deliver|on_match_message|complete_eager|send_eager|try_send)\(|<(MPI|PMPI)_(Send|Recv|Isend|Irecv|Wait|Waitall|Sendrecv|Barrier|Bcast|Reduce|Allreduce|Allgather|Alltoall)>'
named=$(objdump -d --no-show-raw-insn -C "$libmpi" | grep -E '^[0-9a-f]+ <.*>:$' | grep -cE "$hot_mpi")
check "the pattern names libmpi's per-call functions ($named of them)" test "$named" -ge 20
found=$(functions_with_block_clear "$libmpi" | grep -E "$hot_mpi")
check "libmpi's per-call functions clear nothing with rep stos (found: ${found:-none})" test -z "$found"

setup='create_module|basic_open|Basic::open\(|_GLOBAL__sub_I|::defaults\(|::desc\('
found=$(functions_with_block_clear "$coll_basic" | grep -Ev "$setup")
check "coll_basic's collectives clear nothing with rep stos (found: ${found:-none})" test -z "$found"

# The check itself: the old RequestBatch (32 handles cleared up front) is caught.
cat >"$work/batch.cc" <<'EOF'
struct Batch { void *reqs[32] = {}; int n = 0; };
void use(Batch *);
void one_call() { Batch b; use(&b); }
EOF
if ${CXX:-g++} -O2 -c -o "$work/batch.o" "$work/batch.cc" 2>/dev/null; then
  found=$(functions_with_block_clear "$work/batch.o")
  check "the scan finds the block clear of a 32-handle batch (found: ${found:-none})" test -n "$found"
fi
finish
