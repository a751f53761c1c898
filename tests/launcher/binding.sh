#!/bin/sh
# Binding of spawned jobs (issue 20): a spawned rank goes to the core the running ranks leave
# free, under --bind-to core and the default (automatic); the default does not bind a job that
# would oversubscribe the node, counting every namespace's ranks; none binds nothing. A round's
# children end before the next round, whose child gets the freed core again.
. "$PLEXUS_TOP_SRCDIR/tests/launcher/common.sh"
dyn="$PLEXUS_TOP_BUILDDIR/tests/launcher/pmix_dyn_client"
mine=$(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' /proc/self/status)
cores=$(nproc)

# The CPU list a line "WHO rank R cpus LIST" (WHO: parent, or child round N) gave.
cpus_of() { sed -n "s/^$1 rank $2 cpus //p" "$out"; }
one_cpu() {  # one_cpu WHAT LIST: LIST is a single CPU
  case "$2" in '' | *,* | *-*) fail "$name: $1 is not bound to one CPU: '$2'"; show ;; esac
}

run -t 30 spawn-none "$plexrun" -n 1 --bind-to none "$dyn" cpus 1 1
expect_status 0
expect_line "$out" "parent rank 0 cpus $mine"
expect_line "$out" "child round 0 rank 0 cpus $mine"
expect_clean

if [ "$cores" -lt 2 ]; then
  finish
  exit
fi

for policy in default core; do
  bind=''
  [ "$policy" = core ] && bind='--bind-to core'
  # One parent and one child at a time, three rounds: the child always on the parent's free core.
  # shellcheck disable=SC2086
  run -t 30 "spawn-$policy" "$plexrun" -n 1 $bind "$dyn" cpus 1 3
  expect_status 0
  parent=$(cpus_of parent 0)
  one_cpu "the parent" "$parent"
  for round in 0 1 2; do
    child=$(cpus_of "child round $round" 0)
    one_cpu "round $round's child" "$child"
    [ "$child" != "$parent" ] || { fail "$name: round $round's child shares the parent's CPU $parent"; show; }
  done
  expect_count "$out" 4 .
  expect_clean
done

# cores - 1 children beside one parent fill the node: each gets a core of its own.
if [ "$cores" -le 8 ]; then
  run -t 30 spawn-fill "$plexrun" -n 1 "$dyn" cpus $((cores - 1)) 1
  expect_status 0
  seen=$(cpus_of parent 0)
  one_cpu "the parent" "$seen"
  r=0
  while [ "$r" -lt $((cores - 1)) ]; do
    c=$(cpus_of "child round 0" "$r")
    one_cpu "child $r" "$c"
    case " $seen " in *" $c "*) fail "$name: child $r shares CPU $c (taken: $seen)"; show ;; esac
    seen="$seen $c"
    r=$((r + 1))
  done
  expect_clean
fi

# One more child than the free cores: the default leaves the spawned job unbound (the parent,
# which fitted, stays bound); core binds it anyway, to the least loaded cores.
run -t 30 spawn-oversubscribed "$plexrun" -n 1 "$dyn" cpus "$cores" 1
expect_status 0
one_cpu "the parent" "$(cpus_of parent 0)"
expect_count "$out" "$cores" "^child round 0 rank [0-9]+ cpus $mine\$"
expect_clean

run -t 30 spawn-core-oversubscribed "$plexrun" -n "$cores" --bind-to core "$dyn" cpus 1 1
expect_status 0
one_cpu "the child" "$(cpus_of "child round 0" 0)"
expect_clean

# Parents that already oversubscribe the node: the default binds neither them nor the child.
run -t 30 spawn-crowded "$plexrun" -n $((cores + 1)) "$dyn" cpus 1 1
expect_status 0
expect_line "$out" "parent rank 0 cpus $mine"
expect_line "$out" "child round 0 rank 0 cpus $mine"
expect_clean

finish
