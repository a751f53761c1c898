#!/bin/sh
# The compiler wrappers take the spellings users of Open MPI and MPICH type: MPICH's -show and
# Open MPI's -showme print the command and run nothing (before, -show went to the compiler),
# -showme:X is --showme:X, and MPICH's -compile_info / -link_info print the compile / link
# command. Checked on the build-tree mpicc and mpicxx (the installed ones are the same script).
set -u
. "${PLEXUS_TOP_SRCDIR:?run through make check}/tests/lib/checks.sh"
wrappers=${PLEXUS_TOP_BUILDDIR:?run through make check}/tools/mpicc
echo 'int main(void) { return 0; }' >"$work/prog.c"

for w in mpicc mpicxx; do
  wrapper=$wrappers/$w-build-tree
  compiler=$("$wrapper" --showme:command) incdir=$("$wrapper" --showme:incdirs)
  for spelling in -show -showme --showme; do
    run "${w}_$spelling" "$wrapper" "$spelling" "$work/prog.c" -o "$work/prog"
    expect_status 0
    expect_contains "$compiler -I$incdir $work/prog.c -o $work/prog -L"
    expect_contains "-lmpi"
    check "$w $spelling ran no compiler" test ! -e "$work/prog"
  done
  run "${w}_show_c" "$wrapper" -show -c "$work/prog.c"
  expect_not_contains "-lmpi"
  for topic in compile link incdirs libs; do
    run "${w}_long_$topic" "$wrapper" "--showme:$topic"
    cp "$out" "$work/long.out"
    run "${w}_short_$topic" "$wrapper" "-showme:$topic"
    expect_status 0
    check "$w -showme:$topic prints what --showme:$topic does" cmp -s "$out" "$work/long.out"
  done
  run "${w}_compile_info" "$wrapper" -compile_info
  expect_status 0
  expect_line "$compiler -I$incdir"
  run "${w}_link_info" "$wrapper" -link_info -c "$work/prog.c"
  expect_status 0
  expect_contains "$compiler -I$incdir -c $work/prog.c -L"
  expect_contains "-lmpi"
  run "${w}_bad" "$wrapper" -showme:nonsense
  expect_status 2
  expect_contains "unknown option '-showme:nonsense'"
done
finish
