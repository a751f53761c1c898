#!/bin/sh
# config/component_glue.sh turns one PLEXUS_COMPONENT line and a folder that follows the
# convention into the component's rules, refuses a folder without its descriptor (naming it), and
# the rules the build uses are the ones configure.ac gives now (nobody edited the generated file).
set -u
. "$PLEXUS_TOP_SRCDIR/tests/lib/checks.sh"
src=$PLEXUS_TOP_SRCDIR

# A scratch tree with one new component, as a third party would add it.
mkdir -p "$work/config" "$work/components/btl_new/tests"
cp "$src/config/component_glue.sh" "$work/config/"
cat >"$work/configure.ac" <<'AC'
PLEXUS_COMPONENT([btl], [new], [components/btl_new], [real], [yes], [], [-DNEW_FLAG], [-lnew])
AC
for f in btl_new_component.cc new_module.cc new_module.h README.md tests/test_new_module.cc; do
  : >"$work/components/btl_new/$f"
done
run generate sh "$work/config/component_glue.sh"
expect_status 0
glue=$work/config/component_glue.mk
expect_contains "$glue" "plexus_plugin_LTLIBRARIES += components/btl_new/plexus_btl_new.la"
expect_contains "$glue" "components_btl_new_plexus_btl_new_la_SOURCES = components/btl_new/btl_new_component.cc"
expect_contains "$glue" "components/btl_new/new_module.h components/btl_new/new_module.cc"
expect_contains "$glue" "framework_libplexus_la_LIBADD += components/btl_new/libstatic_btl_new.la"
expect_contains "$glue" "TESTS += components/btl_new/tests/test_new_module"
expect_contains "$glue" "components_btl_new_tests_test_new_module_LDADD = components/btl_new/libbtl_new_parts.la"
expect_contains "$glue" "EXTRA_DIST += components/btl_new/README.md"
expect_contains "$glue" '$(MCA_btl_new_LIBS)'
check "the descriptor is not in the parts library" \
  sh -c "! grep '_parts_la_SOURCES' -A3 '$glue' | grep -q btl_new_component.cc"

# Without its descriptor the folder is refused, and the message names the file to add.
rm "$work/components/btl_new/btl_new_component.cc"
run missing sh "$work/config/component_glue.sh"
expect_status 1
expect_contains "btl_new: no descriptor components/btl_new/btl_new_component.cc"

# The tree's own rules are what configure.ac and the folders give today.
mkdir -p "$work/tree"
cp -r "$src/configure.ac" "$src/config" "$src/components" "$src/tests" "$work/tree/"
run regenerate sh "$work/tree/config/component_glue.sh"
expect_status 0
check "config/component_glue.mk is up to date with configure.ac and the component folders (rerun autogen.sh)" \
  cmp -s "$work/tree/config/component_glue.mk" "$src/config/component_glue.mk"
finish
