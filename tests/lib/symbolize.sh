#!/bin/sh
# Symbolizes sanitizer stack frames on stdin: make check runs sanitized programs with
# symbolize=0 (LSAN_OPTIONS in Makefile.am), because matching libpmix's suppressed leaks would
# otherwise load the sanitizer runtime's own debug information in every process at exit (0.2-0.3 s
# of CPU each, about a third of a small MPI test's time). A report then names frames as
# "#3 0x7f... (/path/libplexus.so.0+0x1a2b3)"; this filter adds the function and file:line that
# addr2line finds there and copies every other line unchanged.
#
#   tests/lib/symbolize.sh < build/asan/tests/mpi/default/basics.log
#
# (Or rerun the one test with LSAN_OPTIONS=symbolize=1, which wins over make check's setting.)
frame='^\( *#[0-9][0-9]* 0x[0-9a-f]*\) *(\([^()+]*\)+\(0x[0-9a-f]*\))$'
while IFS= read -r line; do
  head=$(printf '%s\n' "$line" | sed -n "s|$frame|\1|p")
  if [ -z "$head" ] || ! command -v addr2line >/dev/null 2>&1; then
    printf '%s\n' "$line"
    continue
  fi
  module=$(printf '%s\n' "$line" | sed "s|$frame|\2|")
  offset=$(printf '%s\n' "$line" | sed "s|$frame|\3|")
  # -i: inlined frames too; pairs of lines "function" / "file:line".
  where=$(addr2line -f -C -i -e "$module" "$offset" 2>/dev/null | paste -sd ' ' - |
    sed -e 's/ (discriminator [0-9]*)//g' -e 's/\(:[0-9?][0-9]*\) /\1; /g')
  case $where in
    ''|'?? ??:0'|'?? ??:?') printf '%s\n' "$line" ;;
    *) printf '%s in %s (%s+%s)\n' "$head" "$where" "$module" "$offset" ;;
  esac
done
