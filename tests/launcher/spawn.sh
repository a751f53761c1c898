#!/bin/sh
# PMIx_Spawn from a rank: a new namespace of 2 ranks, children of the same plexrun, whose
# ranks fence among themselves, see PMIX_PARENT_ID and read the parent job's info; the
# parent gets the new namespace's name; the whole job exits 0.
. "$PLEXUS_TOP_SRCDIR/tests/launcher/common.sh"

run -t 30 spawn "$plexrun" -n 2 --tag-output "$client" spawn
expect_status 0
parent=$(sed -n 's/^\[1,0\]<stdout>: parent rank 0 nspace \([^ ]*\) .*/\1/p' "$out")
ppid=$(sed -n 's/^\[1,0\]<stdout>: parent rank 0 nspace .* ppid //p' "$out")
child=$(sed -n 's/^\[1,0\]<stdout>: parent rank 0 spawned //p' "$out")
case "$parent" in plexrun.*.1) ;; *) fail "spawn: parent namespace '$parent'"; show ;; esac
[ "$child" = "${parent%.1}.2" ] || { fail "spawn: spawned namespace '$child', expected ${parent%.1}.2"; show; }
expect_line "$out" "[1,1]<stdout>: parent rank 1 nspace $parent ppid $ppid"
# The spawned ranks are job 2 in the tags, and children of the same plexrun.
expect_line "$out" "[2,0]<stdout>: child rank 0 nspace $child parent $parent:0 parent-size 2 cards ok, ppid $ppid"
expect_line "$out" "[2,1]<stdout>: child rank 1 nspace $child parent $parent:0 parent-size 2 cards ok, ppid $ppid"
expect_count "$out" 5 .
[ -s "$err" ] && { fail "spawn: unexpected stderr"; show; }
expect_clean

# A spawn that cannot start answers an error to the caller; the job goes on and ends well.
run -t 30 spawn-missing "$plexrun" -n 2 "$client" spawn-missing
expect_status 0
expect_line "$out" "spawn of a missing program: JOB FAILED TO LAUNCH"
expect_count "$err" 1 "^plexrun: spawn by plexrun\.[0-9]+\.1:0 failed: cannot run '/nonexistent/plexrun-test-program': No such file or directory\$"
expect_clean

# A spawned rank that fails ends the whole job, parent included.
run -t 30 spawn-fails "$plexrun" -n 1 "$client" spawn fail
expect_status 9
expect_count "$err" 1 '^plexrun: rank 1 \(namespace plexrun\.[0-9]+\.2, job 2 spawned by plexrun\.[0-9]+\.1:0, pid [0-9]+\) exited with status 9 without calling PMIx_Finalize; killing the job$'
expect_clean

finish
