#!/bin/sh
# Every plugin the build made exports its component descriptor and nothing else (components/
# plugin.map), and keeps its own functions in its symbol table as local symbols, so that perf and
# gdb can name them (libtool's -export-symbols-regex used to strip them all).
set -u
. "$PLEXUS_TOP_SRCDIR/tests/lib/checks.sh"
build=$PLEXUS_TOP_BUILDDIR
plugins=$(ls "$build"/components/*/.libs/plexus_*.so 2>/dev/null)
[ -n "$plugins" ] || fail "no plugin found under $build/components"
for so in $plugins; do
  plugin=$(basename "$so" .so)
  exported=$(nm -D --defined-only "$so" | awk '{print $3}' | sort | tr '\n' ' ')
  check "$plugin exports only ${plugin}_component (exports: $exported)" test "$exported" = "${plugin}_component "
  locals=$(nm --defined-only "$so" | grep -c ' t ')
  check "$plugin keeps its functions in .symtab as local symbols ($locals)" test "$locals" -ge 20
done
finish
