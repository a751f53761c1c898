#!/bin/sh
# The command line: bad options name the option and what it accepts (status 2), --help and
# --version, programs that cannot run (127/126), and --bind-to.
. "$PLEXUS_TOP_SRCDIR/tests/launcher/common.sh"

bad() {
  expected=$1; shift
  run -t 10 bad "$plexrun" "$@"
  expect_status 2
  expect_line "$err" "$expected"
  [ -s "$out" ] && { fail "bad option $*: wrote to stdout"; show; }
}
bad "plexrun: -n expects a number of ranks from 1 to 65535, got '0'" -n 0 true
bad "plexrun: -np expects a number of ranks from 1 to 65535, got 'four'" -np four true
bad "plexrun: --np expects a number of ranks, but nothing follows it" --np
bad "plexrun: --bind-to expects one of: core, none; got 'socket'" --bind-to socket true
bad "plexrun: --bind-to expects one of: core, none; got 'numa'" --bind-to=numa true
bad "plexrun: --timeout expects a positive number of seconds (e.g. 30 or 0.5), got '-1'" --timeout -1 true
bad "plexrun: --timeout expects a positive number of seconds (e.g. 30 or 0.5), got '5s'" --timeout 5s true
bad "plexrun: --mca expects a parameter name and a value: --mca <name> <value>" --mca btl
bad "plexrun: --mca expects a parameter name made of letters, digits and '_' (e.g. btl_sm_fastbox_max), got 'btl-sm'" --mca btl-sm 1 true
bad "plexrun: --universe-size expects a number of processes from 1 to 65535, got '0'" --universe-size 0 true
bad "plexrun: --universe-size 2 is smaller than the 4 ranks of -n: the universe holds every running process" -n 4 --universe-size 2 true
bad "plexrun: --tag-output takes no value (got '--tag-output=yes')" --tag-output=yes true
bad "plexrun: unknown option '--frobnicate'; options are -n/-np/--np, --mca, --tag-output, --timeout, --bind-to, --universe-size, --verbose, --help, --version (see plexrun --help)" --frobnicate true
bad "plexrun: no program to run; usage: plexrun -n N [options] [--] program [args...]" -n 2

run -t 10 help "$plexrun" --help
expect_status 0
expect_contains "$out" "usage: plexrun -n N [options] [--] program [args...]"
run -t 10 version "$plexrun" --version
expect_status 0
expect_count "$out" 1 '^plexrun \(Plexus\) [0-9]+\.[0-9]+\.[0-9]+$'

# Everything after the program (or after --) is the program's, options included.
run -t 10 passthrough "$plexrun" -n 1 -- sh -c 'printf "%s\n" "$*"' sh -n 5 --frobnicate
expect_status 0
expect_line "$out" "-n 5 --frobnicate"

run -t 10 not-found "$plexrun" -n 2 /nonexistent/program
expect_status 127
expect_line "$err" "plexrun: cannot run '/nonexistent/program': No such file or directory"
run -t 10 not-in-path "$plexrun" -n 2 plexrun-no-such-program
expect_status 127
expect_line "$err" "plexrun: cannot run 'plexrun-no-such-program': No such file or directory (looked in PATH)"
printf '#!/bin/sh\n' >"$work/not-executable"
run -t 10 not-executable "$plexrun" -n 1 "$work/not-executable"
expect_status 126
expect_line "$err" "plexrun: cannot run '$work/not-executable': Permission denied"
expect_clean

# Binding: each bound rank on one core of its own (rank i on core i mod cores); none leaves
# every rank with plexrun's own CPUs, as does the default once the ranks outnumber the cores.
mine=$(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' /proc/self/status)
cores=$(nproc)
show_cpus='echo "$PMIX_RANK $(sed -n "s/^Cpus_allowed_list:[[:space:]]*//p" /proc/self/status)"'
run -t 10 bind-none "$plexrun" -n 2 --bind-to none sh -c "$show_cpus"
expect_status 0
expect_line "$out" "0 $mine"
expect_line "$out" "1 $mine"
run -t 10 bind-oversubscribed "$plexrun" -n $((cores + 1)) sh -c "$show_cpus"
expect_status 0
expect_count "$out" $((cores + 1)) " $mine\$"
if [ "$cores" -ge 2 ]; then
  run -t 10 bind-core "$plexrun" -n 2 --bind-to core sh -c "$show_cpus"
  expect_status 0
  cpu0=$(sed -n 's/^0 //p' "$out") cpu1=$(sed -n 's/^1 //p' "$out")
  case "$cpu0$cpu1" in *,*|*-*) fail "bind-core: a rank has more than one CPU: '$cpu0' '$cpu1'" ;; esac
  [ -n "$cpu0" ] && [ "$cpu0" != "$cpu1" ] || fail "bind-core: ranks share CPU '$cpu0'"
  run -t 10 bind-default "$plexrun" -n 2 sh -c "$show_cpus"
  expect_status 0
  expect_line "$out" "0 $cpu0"
  expect_line "$out" "1 $cpu1"
fi
expect_clean

finish
