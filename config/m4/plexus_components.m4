# Component bookkeeping for configure: which components the tree has, which are built as plugins,
# which are linked into the core (--enable-mca-static) and which are skipped, and why.

# PLEXUS_COMPONENTS_INIT: start the list.
AC_DEFUN([PLEXUS_COMPONENTS_INIT], [
  plexus_known_components=
  plexus_component_summary=
  PLEXUS_STATIC_DECLS=
  PLEXUS_STATIC_ENTRIES=
  plexus_no_build=" $(echo "$enable_mca_no_build" | tr ',' ' ') "
  plexus_static=" $(echo "$enable_mca_static" | tr ',' ' ') "
])

# PLEXUS_COMPONENT(framework, name, folder, kind, dependency-found[, why-not[, cppflags[, libs]]])
#   kind: "real" (installed into the plugin folder) or "test" (built for make check only).
#   dependency-found: "yes" or a shell expression expanding to yes/no; why-not explains a no.
#   cppflags, libs: what the component needs beyond the SDK headers (MCA_<fw>_<name>_CPPFLAGS
#   and _LIBS in its generated rules, config/component_glue.sh).
# This one line is all the build knows of a component: config/component_glue.sh turns it into
# the component's plugin, static and unit-test rules.
AC_DEFUN([PLEXUS_COMPONENT], [
  AC_SUBST([MCA_$1_$2_CPPFLAGS], ["$7"])
  AC_SUBST([MCA_$1_$2_LIBS], ["$8"])
  plexus_c="$1-$2"
  plexus_known_components="$plexus_known_components $plexus_c"
  plexus_mode=dso
  plexus_why=
  AS_IF([test "x$5" != xyes], [plexus_mode=no; plexus_why="$6"])
  AS_CASE([$plexus_no_build], [*" $plexus_c "*], [plexus_mode=no; plexus_why="--enable-mca-no-build"])
  AS_IF([test "x$plexus_mode" = xdso],
    [AS_CASE([$plexus_static], [*" $plexus_c "*], [plexus_mode=static])])
  AS_CASE([$plexus_mode],
    [dso], [plexus_desc="plugin plexus_$1_$2.so"],
    [static], [plexus_desc="static (linked into libplexus)"
               PLEXUS_STATIC_DECLS="$PLEXUS_STATIC_DECLS extern const plexus_component_t plexus_$1_$2_component;"
               PLEXUS_STATIC_ENTRIES="$PLEXUS_STATIC_ENTRIES &plexus_$1_$2_component,"],
    [plexus_desc="not built: $plexus_why"])
  AS_IF([test "x$4" = xtest], [plexus_desc="$plexus_desc (test component)"])
  plexus_component_summary="$plexus_component_summary
  $(printf '%-22s %s' "$1_$2" "$plexus_desc")"
  AM_CONDITIONAL([MCA_DSO_$1_$2], [test "x$plexus_mode" = xdso])
  AM_CONDITIONAL([MCA_STATIC_$1_$2], [test "x$plexus_mode" = xstatic])
  AM_CONDITIONAL([MCA_BUILD_$1_$2], [test "x$plexus_mode" != xno])
])

# PLEXUS_COMPONENTS_FINISH: check the user's lists against what exists.
AC_DEFUN([PLEXUS_COMPONENTS_FINISH], [
  for plexus_c in $plexus_no_build $plexus_static; do
    AS_CASE([" $plexus_known_components "], [*" $plexus_c "*], [],
      [AC_MSG_WARN([component '$plexus_c' named in --enable-mca-no-build/--enable-mca-static is not in this tree (known:$plexus_known_components)])])
  done
  AC_SUBST([PLEXUS_STATIC_DECLS])
  AC_SUBST([PLEXUS_STATIC_ENTRIES])
])
