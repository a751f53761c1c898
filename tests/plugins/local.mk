# Test components: a good one in each framework (until the real ones exist), and deliberately
# broken ones, each of which must produce its own specific message. Never installed.
PLUGIN_CXXFLAGS = $(AM_CXXFLAGS) -fvisibility=hidden

# Good components are listed in configure.ac like real ones (their rules are generated, see
# config/component_glue.sh), so --enable-mca-static and --enable-mca-no-build can be exercised on
# them.

# Broken on purpose; each lives in its own folder (tests/plugins/broken/) so that the default
# component path of a test can include or leave out the broken ones.
check_LTLIBRARIES += tests/plugins/broken/plexus_btl_abinext.la \
	tests/plugins/broken/plexus_btl_undefsym.la \
	tests/plugins/broken/plexus_coll_wrongfw.la
tests_plugins_broken_plexus_btl_abinext_la_SOURCES = tests/plugins/broken/btl_abinext.cc
tests_plugins_broken_plexus_btl_abinext_la_CXXFLAGS = $(PLUGIN_CXXFLAGS)
tests_plugins_broken_plexus_btl_abinext_la_LDFLAGS = $(TEST_PLUGIN_LDFLAGS)
tests_plugins_broken_plexus_btl_undefsym_la_SOURCES = tests/plugins/broken/btl_undefsym.cc
tests_plugins_broken_plexus_btl_undefsym_la_CXXFLAGS = $(PLUGIN_CXXFLAGS)
# -no-undefined is dropped: leaving a symbol unresolved is the point of this plugin.
tests_plugins_broken_plexus_btl_undefsym_la_LDFLAGS = -module -avoid-version -shared -rpath /nowhere
tests_plugins_broken_plexus_coll_wrongfw_la_SOURCES = tests/plugins/broken/coll_wrongfw.cc
tests_plugins_broken_plexus_coll_wrongfw_la_CXXFLAGS = $(PLUGIN_CXXFLAGS)
tests_plugins_broken_plexus_coll_wrongfw_la_LDFLAGS = $(TEST_PLUGIN_LDFLAGS)
