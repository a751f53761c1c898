#!/bin/sh
# Dynamic processes in one plexrun (issue 19 item 5), through a raw-PMIx client: the universe
# size every job sees, spawns beyond it refused, spawns from any rank, a spawned job ending
# before or after its parent without ending it, a failing child ending the whole tree with a
# message naming it, and PMIx_Connect between a job and the job it spawned.
. "$PLEXUS_TOP_SRCDIR/tests/launcher/common.sh"
dyn="$PLEXUS_TOP_BUILDDIR/tests/launcher/pmix_dyn_client"

# Default: the CPUs plexrun may use (without binding: those online), or the ranks if more.
cpus=$(getconf _NPROCESSORS_ONLN)
want=$cpus; [ "$want" -lt 3 ] && want=3
run -t 30 universe-default "$plexrun" -n 3 --bind-to none "$dyn" universe
expect_status 0
for r in 0 1 2; do expect_line "$out" "rank $r universe $want job 3"; done
expect_clean

# A spawned job that oversubscribes the node sees a universe that holds it and its parent.
want=$cpus; [ "$want" -lt 4 ] && want=4
run -t 30 universe-grows "$plexrun" -n 1 --bind-to none "$dyn" too-many 3
expect_status 0
expect_line "$out" "spawn of 3: SUCCESS"
for r in 0 1 2; do expect_line "$out" "rank $r universe $want job 3"; done
expect_clean

run -t 30 universe-given "$plexrun" -n 2 --universe-size 6 "$dyn" universe
expect_status 0
expect_line "$out" "rank 0 universe 6 job 2"
expect_line "$out" "rank 1 universe 6 job 2"
expect_clean

# 2 running + 3 asked > 4: refused, with the reason on stderr; the job goes on and ends well.
run -t 30 too-many "$plexrun" -n 2 --universe-size 4 "$dyn" too-many 3
expect_status 0
expect_line "$out" "spawn of 3: OUT-OF-RESOURCE"
expect_count "$err" 1 '^plexrun: spawn of 3 process\(es\) by plexrun\.[0-9]+\.1:0 refused: 2 of the universe'"'"'s 4 slots \(--universe-size\) are taken$'
expect_clean
# 2 + 2 fit, and the children see the same universe.
run -t 30 just-enough "$plexrun" -n 2 --universe-size 4 "$dyn" too-many 2
expect_status 0
expect_line "$out" "spawn of 2: SUCCESS"
expect_line "$out" "rank 0 universe 4 job 2"
expect_line "$out" "rank 1 universe 4 job 2"
[ -s "$err" ] && { fail "just-enough: unexpected stderr"; show; }
expect_clean

# Rank 1 spawns; the parent job ends first, the child goes on, plexrun waits for it.
run -t 30 parent-first "$plexrun" -n 2 "$dyn" order 1 parent
expect_status 0
child=$(sed -n 's/^rank 1 spawned //p' "$out")
case "$child" in plexrun.*.2) ;; *) fail "parent-first: spawned namespace '$child'"; show ;; esac
expect_line "$out" "child $child ends after its parent"
expect_count "$out" 2 .
[ -s "$err" ] && { fail "parent-first: unexpected stderr"; show; }
expect_clean

# Rank 0 spawns; the child ends first, which ends nothing else.
run -t 30 child-first "$plexrun" -n 2 "$dyn" order 0 child
expect_status 0
child=$(sed -n 's/^rank 0 spawned //p' "$out")
expect_line "$out" "child $child ends first"
expect_line "$out" "rank 0 ends after its child"
[ -s "$err" ] && { fail "child-first: unexpected stderr"; show; }
expect_clean

# A child of rank 1 fails: the tree ends, with the child's namespace, rank and parent named.
run -t 30 child-fails "$plexrun" -n 2 --timeout 20 "$dyn" fail-child 1
expect_status 5
child=$(sed -n 's/^rank 1 spawned //p' "$out")
parent=${child%.2}.1
expect_count "$err" 1 "^plexrun: rank 1 \\(namespace $child, job 2 spawned by $parent:1, pid [0-9]+\\) exited with status 5 without calling PMIx_Finalize; killing the job\$"
expect_clean

# A job and its spawned job connect, read each other's cards and sizes, and disconnect.
run -t 30 connect "$plexrun" -n 2 "$dyn" connect
expect_status 0
child=$(sed -n 's/^parent rank 0 connected to \([^ ]*\) .*/\1/p' "$out")
parent=${child%.2}.1
expect_line "$out" "parent rank 0 connected to $child of 2, cards ok"
expect_line "$out" "parent rank 1 connected to $child of 2, cards ok"
expect_line "$out" "child rank 0 connected to $parent of 2, cards ok"
expect_line "$out" "child rank 1 connected to $parent of 2, cards ok"
[ -s "$err" ] && { fail "connect: unexpected stderr"; show; }
expect_clean

# 60 spawned jobs one after the other: plexrun's descriptors stay, its memory hardly grows
# (libpmix forgets every ended job; it kept about 46 kB of each before).
# Under AddressSanitizer freed memory sits in its quarantine: only the descriptors are checked.
run -t 60 cycles "$plexrun" -n 1 "$dyn" cycles 60
expect_status 0
expect_count "$out" 1 '^plexrun after 60 spawns: the same descriptors, -?[0-9]+ kB more memory than after 10$'
grown=$(sed -n 's/^plexrun after 60 spawns: .*, \(-\{0,1\}[0-9]*\) kB more memory.*/\1/p' "$out")
if ! ldd "$plexrun" 2>/dev/null | grep -q libasan && [ "${grown:-99999}" -ge 1536 ]; then
  fail "cycles: plexrun's memory grew by ${grown:-?} kB over 50 spawns (at most 1535 expected)"
fi
expect_clean

finish
