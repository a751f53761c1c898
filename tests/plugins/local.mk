# Test components: a good one in each framework (until the real ones exist), and deliberately
# broken ones, each of which must produce its own specific message. Never installed.
PLUGIN_CXXFLAGS = $(AM_CXXFLAGS) -fvisibility=hidden

# Good components go through configure's component machinery, so --enable-mca-static and
# --enable-mca-no-build can be exercised on them.
if MCA_DSO_btl_good
check_LTLIBRARIES += tests/plugins/plexus_btl_good.la
endif
if MCA_STATIC_btl_good
noinst_LTLIBRARIES += tests/plugins/libstatic_btl_good.la
framework_libplexus_la_LIBADD += tests/plugins/libstatic_btl_good.la
endif
tests_plugins_plexus_btl_good_la_SOURCES = tests/plugins/btl_good.cc tests/plugins/test_component.h
tests_plugins_plexus_btl_good_la_CXXFLAGS = $(PLUGIN_CXXFLAGS)
tests_plugins_plexus_btl_good_la_LDFLAGS = $(TEST_PLUGIN_LDFLAGS)
tests_plugins_libstatic_btl_good_la_SOURCES = $(tests_plugins_plexus_btl_good_la_SOURCES)
tests_plugins_libstatic_btl_good_la_CXXFLAGS = $(PLUGIN_CXXFLAGS)

if MCA_DSO_btl_other
check_LTLIBRARIES += tests/plugins/plexus_btl_other.la
endif
if MCA_STATIC_btl_other
noinst_LTLIBRARIES += tests/plugins/libstatic_btl_other.la
framework_libplexus_la_LIBADD += tests/plugins/libstatic_btl_other.la
endif
tests_plugins_plexus_btl_other_la_SOURCES = tests/plugins/btl_other.cc tests/plugins/test_component.h
tests_plugins_plexus_btl_other_la_CXXFLAGS = $(PLUGIN_CXXFLAGS)
tests_plugins_plexus_btl_other_la_LDFLAGS = $(TEST_PLUGIN_LDFLAGS)
tests_plugins_libstatic_btl_other_la_SOURCES = $(tests_plugins_plexus_btl_other_la_SOURCES)
tests_plugins_libstatic_btl_other_la_CXXFLAGS = $(PLUGIN_CXXFLAGS)

if MCA_DSO_btl_nodev
check_LTLIBRARIES += tests/plugins/plexus_btl_nodev.la
endif
if MCA_STATIC_btl_nodev
noinst_LTLIBRARIES += tests/plugins/libstatic_btl_nodev.la
framework_libplexus_la_LIBADD += tests/plugins/libstatic_btl_nodev.la
endif
tests_plugins_plexus_btl_nodev_la_SOURCES = tests/plugins/btl_nodev.cc tests/plugins/test_component.h
tests_plugins_plexus_btl_nodev_la_CXXFLAGS = $(PLUGIN_CXXFLAGS)
tests_plugins_plexus_btl_nodev_la_LDFLAGS = $(TEST_PLUGIN_LDFLAGS)
tests_plugins_libstatic_btl_nodev_la_SOURCES = $(tests_plugins_plexus_btl_nodev_la_SOURCES)
tests_plugins_libstatic_btl_nodev_la_CXXFLAGS = $(PLUGIN_CXXFLAGS)

if MCA_DSO_coll_good
check_LTLIBRARIES += tests/plugins/plexus_coll_good.la
endif
if MCA_STATIC_coll_good
noinst_LTLIBRARIES += tests/plugins/libstatic_coll_good.la
framework_libplexus_la_LIBADD += tests/plugins/libstatic_coll_good.la
endif
tests_plugins_plexus_coll_good_la_SOURCES = tests/plugins/coll_good.cc tests/plugins/test_component.h
tests_plugins_plexus_coll_good_la_CXXFLAGS = $(PLUGIN_CXXFLAGS)
tests_plugins_plexus_coll_good_la_LDFLAGS = $(TEST_PLUGIN_LDFLAGS)
tests_plugins_libstatic_coll_good_la_SOURCES = $(tests_plugins_plexus_coll_good_la_SOURCES)
tests_plugins_libstatic_coll_good_la_CXXFLAGS = $(PLUGIN_CXXFLAGS)

if MCA_DSO_osc_good
check_LTLIBRARIES += tests/plugins/plexus_osc_good.la
endif
if MCA_STATIC_osc_good
noinst_LTLIBRARIES += tests/plugins/libstatic_osc_good.la
framework_libplexus_la_LIBADD += tests/plugins/libstatic_osc_good.la
endif
tests_plugins_plexus_osc_good_la_SOURCES = tests/plugins/osc_good.cc tests/plugins/test_component.h
tests_plugins_plexus_osc_good_la_CXXFLAGS = $(PLUGIN_CXXFLAGS)
tests_plugins_plexus_osc_good_la_LDFLAGS = $(TEST_PLUGIN_LDFLAGS)
tests_plugins_libstatic_osc_good_la_SOURCES = $(tests_plugins_plexus_osc_good_la_SOURCES)
tests_plugins_libstatic_osc_good_la_CXXFLAGS = $(PLUGIN_CXXFLAGS)

if MCA_DSO_dpm_good
check_LTLIBRARIES += tests/plugins/plexus_dpm_good.la
endif
if MCA_STATIC_dpm_good
noinst_LTLIBRARIES += tests/plugins/libstatic_dpm_good.la
framework_libplexus_la_LIBADD += tests/plugins/libstatic_dpm_good.la
endif
tests_plugins_plexus_dpm_good_la_SOURCES = tests/plugins/dpm_good.cc tests/plugins/test_component.h
tests_plugins_plexus_dpm_good_la_CXXFLAGS = $(PLUGIN_CXXFLAGS)
tests_plugins_plexus_dpm_good_la_LDFLAGS = $(TEST_PLUGIN_LDFLAGS)
tests_plugins_libstatic_dpm_good_la_SOURCES = $(tests_plugins_plexus_dpm_good_la_SOURCES)
tests_plugins_libstatic_dpm_good_la_CXXFLAGS = $(PLUGIN_CXXFLAGS)

if MCA_DSO_reconf_good
check_LTLIBRARIES += tests/plugins/plexus_reconf_good.la
endif
if MCA_STATIC_reconf_good
noinst_LTLIBRARIES += tests/plugins/libstatic_reconf_good.la
framework_libplexus_la_LIBADD += tests/plugins/libstatic_reconf_good.la
endif
tests_plugins_plexus_reconf_good_la_SOURCES = tests/plugins/reconf_good.cc tests/plugins/test_component.h
tests_plugins_plexus_reconf_good_la_CXXFLAGS = $(PLUGIN_CXXFLAGS)
tests_plugins_plexus_reconf_good_la_LDFLAGS = $(TEST_PLUGIN_LDFLAGS)
tests_plugins_libstatic_reconf_good_la_SOURCES = $(tests_plugins_plexus_reconf_good_la_SOURCES)
tests_plugins_libstatic_reconf_good_la_CXXFLAGS = $(PLUGIN_CXXFLAGS)

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
