#!/bin/sh
# Run by make installcheck (and so by make distcheck): the component template builds against the
# installed SDK alone, and the installed plexus_info finds it both on the component path and in
# the ABI-versioned plugin folder beside the installed libplexus.
# Usage: sdk_template.sh PREFIX LIBDIR SRCDIR
set -u
prefix=$1 libdir=$2 srcdir=$3
work=$(mktemp -d "${TMPDIR:-/tmp}/plexus-sdk.XXXXXX")
plugindir=
cleanup() {
  [ -n "$plugindir" ] && rm -f "$plugindir/plexus_coll_template.so"
  rm -rf "$work"
}
trap cleanup EXIT
failures=0
check() {  # check DESCRIPTION COMMAND...: one reported result
  if "$@" >"$work/last.out" 2>&1; then echo "PASS: sdk: $desc"
  else echo "FAIL: sdk: $desc"; sed 's/^/  | /' "$work/last.out" | head -40; failures=$((failures + 1)); fi
}
export PKG_CONFIG_PATH="$libdir/pkgconfig"
export HOME="$work/home"
for v in $(env | sed -n 's/^\(PLEXUS_MCA_[A-Za-z0-9_]*\)=.*/\1/p'); do unset "$v"; done
cp -R "$srcdir/examples/component-template" "$work/template"
chmod -R u+w "$work/template"

desc="pkg-config names the ABI-versioned plugin folder"
check test "$(pkg-config --variable=plugindir plexus-component)" = "$libdir/plexus/plugins-1"
desc="the template builds against the installed headers only"
check make -C "$work/template"
desc="the template exports nothing but its descriptor"
check make -C "$work/template" check
desc="the installed plexus_info finds it on the component path"
check sh -c "PLEXUS_MCA_component_path='$work/template' '$prefix/bin/plexus_info' | grep -F 'from $work/template/plexus_coll_template.so'"
desc="its parameters are registered and shown"
check sh -c "PLEXUS_MCA_component_path='$work/template' '$prefix/bin/plexus_info' --component coll template --level 9 | grep -F coll_template_priority_boost"
desc="make install DESTDIR=... puts it into the plugin folder"
check sh -c "make -C '$work/template' install DESTDIR='$work/dest' && test -f '$work/dest$libdir/plexus/plugins-1/plexus_coll_template.so'"
plugindir="$libdir/plexus/plugins-1"
desc="dropped into the folder beside libplexus, it is found without any path set"
check sh -c "mkdir -p '$plugindir' && cp '$work/template/plexus_coll_template.so' '$plugindir/' && '$prefix/bin/plexus_info' | grep -F 'from $plugindir/plexus_coll_template.so'"
[ "$failures" -eq 0 ]
