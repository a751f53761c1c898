#!/bin/sh
# Run by make installcheck (and so by make distcheck): the component template builds against the
# installed SDK alone, and the installed plexus_info finds it both on the component path and in
# the ABI-versioned plugin folder beside the installed libplexus.
# Usage: sdk_template.sh PREFIX LIBDIR SRCDIR
set -u
prefix=$1 libdir=$2 srcdir=$3
. "$(dirname "$0")/../lib/checks.sh"
plugindir=
cleanup() {
  [ -n "$plugindir" ] && rm -f "$plugindir/plexus_coll_template.so"
  rm -rf "$work"
}
trap cleanup EXIT
export PKG_CONFIG_PATH="$libdir/pkgconfig"
export HOME="$work/home"
cp -R "$srcdir/examples/component-template" "$work/template"
chmod -R u+w "$work/template"

check "sdk: pkg-config names the ABI-versioned plugin folder" \
  test "$(pkg-config --variable=plugindir plexus-component)" = "$libdir/plexus/plugins-1"
check "sdk: the C++ layer is installed beside component.h" \
  test -f "$(pkg-config --variable=includedir plexus-component)/plexus/sdk/descriptor.hpp"
check "sdk: the template is written with it" \
  grep -q '^#include <plexus/sdk/descriptor.hpp>' "$work/template/template_component.cc"
check "sdk: the template builds against the installed headers only" \
  make -C "$work/template"
check "sdk: the template exports nothing but its descriptor" \
  make -C "$work/template" check
check "sdk: the installed plexus_info finds it on the component path" \
  sh -c "PLEXUS_MCA_component_path='$work/template' '$prefix/bin/plexus_info' | grep -F 'from $work/template/plexus_coll_template.so'"
check "sdk: its parameters are registered and shown" \
  sh -c "PLEXUS_MCA_component_path='$work/template' '$prefix/bin/plexus_info' --component coll template --level 9 | grep -F coll_template_priority_boost"
check "sdk: param_is_set tells the template its parameter was set by the user" \
  sh -c "PLEXUS_MCA_component_path='$work/template' PLEXUS_MCA_coll_base_verbose=1 PLEXUS_MCA_coll_template_priority_boost=3 '$prefix/bin/plexus_info' --select coll 2>&1 | grep -F 'priority boost 3 set by the user'"
check "sdk: the core registers the BTL parameters for each btl component" \
  sh -c "'$prefix/bin/plexus_info' --param btl sm --level 9 | grep -F btl_sm_eager_limit"
check "sdk: make install DESTDIR=... puts it into the plugin folder" \
  sh -c "make -C '$work/template' install DESTDIR='$work/dest' && test -f '$work/dest$libdir/plexus/plugins-1/plexus_coll_template.so'"
plugindir="$libdir/plexus/plugins-1"
check "sdk: dropped into the folder beside libplexus, it is found without any path set" \
  sh -c "mkdir -p '$plugindir' && cp '$work/template/plexus_coll_template.so' '$plugindir/' && '$prefix/bin/plexus_info' | grep -F 'from $plugindir/plexus_coll_template.so'"
finish
