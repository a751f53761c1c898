#!/bin/sh
# A profiling tool works with Plexus (tests/pmpi/README.md): libcount_calls, linked into the
# workload before libmpi, and preloaded with LD_PRELOAD into the unmodified workload started by
# plexrun, counts exactly the calls the program made, with their bytes: one MPI_Bcast is one call
# whatever messages carry it, an MPI_Allreduce (also when coll_basic does it as a reduce and a
# broadcast) is not counted as MPI_Reduce + MPI_Bcast, the MPI-1 attribute names do not show up
# as the MPI-2 calls they are built on, MPI_Pcontrol(0) reaches the tool and pauses it. Without
# the tool the same program prints no summary.
set -u
. "$PLEXUS_TOP_SRCDIR/tests/lib/checks.sh"
build=$PLEXUS_TOP_BUILDDIR
plexrun=$build/tools/plexrun/plexrun
tool=$build/tests/pmpi/.libs/libcount_calls.so
plain=$build/tests/pmpi/workload counted=$build/tests/pmpi/workload_counted
if [ ! -x "$plexrun" ]; then echo "SKIP: $plexrun is not built (it needs PMIx)"; exit 77; fi
for f in "$tool" "$plain" "$counted"; do
  [ -e "$f" ] || { fail "$f is not built (make check builds it)"; finish; }
done

# The summary of the workload at 4 ranks (its head comment lists the calls each rank makes).
cat >"$work/expected" <<'EOF'
count_calls: 4 ranks
count_calls: MPI_Init calls 4 bytes 0
count_calls: MPI_Init_thread calls 0 bytes 0
count_calls: MPI_Finalize calls 4 bytes 0
count_calls: MPI_Send calls 20 bytes 2000
count_calls: MPI_Ssend calls 0 bytes 0
count_calls: MPI_Recv calls 20 bytes 2000
count_calls: MPI_Isend calls 16 bytes 3328
count_calls: MPI_Irecv calls 16 bytes 3328
count_calls: MPI_Sendrecv calls 4 bytes 256
count_calls: MPI_Wait calls 8 bytes 0
count_calls: MPI_Waitall calls 4 bytes 0
count_calls: MPI_Waitany calls 0 bytes 0
count_calls: MPI_Waitsome calls 0 bytes 0
count_calls: MPI_Barrier calls 12 bytes 0
count_calls: MPI_Bcast calls 4 bytes 16000
count_calls: MPI_Reduce calls 8 bytes 320
count_calls: MPI_Allreduce calls 4 bytes 256
count_calls: MPI_Gather calls 0 bytes 0
count_calls: MPI_Allgather calls 0 bytes 0
count_calls: MPI_Alltoall calls 0 bytes 0
count_calls: MPI_Comm_create_keyval calls 0 bytes 0
count_calls: MPI_Comm_set_attr calls 0 bytes 0
count_calls: MPI_Pcontrol calls 8 bytes 0
EOF

# expect_summary: the last run passed and printed exactly the expected summary, once.
expect_summary() {
  expect_status 0
  expect_line "pmpi_workload: PASS: 4 ranks"
  grep '^count_calls: ' "$out" >"$work/$name.summary"
  if ! cmp -s "$work/expected" "$work/$name.summary"; then
    fail "$name: the tool's summary is not the expected one (diff expected printed):"
    diff "$work/expected" "$work/$name.summary" | sed 's/^/  | /'
    show
  fi
}

# Under AddressSanitizer (--enable-debug) the sanitizer's runtime must come first in the initial
# library list: a preloaded tool goes after it, as an ASan user would write it.
asan_runtime=$(ldd "$plain" | awk '$1 ~ /^libasan\.so/ { print $3 }')
preload=${asan_runtime:+$asan_runtime }$tool

check "the plain workload does not link the tool (it is unmodified)" \
  sh -c "! readelf -d '$plain' | grep -q count_calls"
check "the counted workload links the tool before libmpi" \
  sh -c "readelf -d '$counted' | grep NEEDED | grep -E 'count_calls|libmpi' | head -1 | grep -q count_calls"

run -t 90 linked "$plexrun" -n 4 --timeout 60 "$counted"
expect_summary

run -t 90 linked_reduce_bcast "$plexrun" -n 4 --timeout 60 --mca coll_basic_allreduce_algorithm reduce_bcast \
  --mca coll_basic_bcast_algorithm binomial "$counted"
expect_summary

run -t 90 preloaded env LD_PRELOAD="$preload" "$plexrun" -n 4 --timeout 60 "$plain"
expect_summary

run -t 90 without_tool "$plexrun" -n 4 --timeout 60 "$plain"
expect_status 0
expect_line "pmpi_workload: PASS: 4 ranks"
expect_not_contains "count_calls:"
finish
