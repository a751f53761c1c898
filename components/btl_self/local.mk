# btl_self: messages a process sends to itself.
BTL_SELF_SOURCES = components/btl_self/btl_self_component.cc \
	components/btl_self/self_module.h components/btl_self/self_module.cc

if MCA_DSO_btl_self
plexus_plugin_LTLIBRARIES += components/btl_self/plexus_btl_self.la
endif
components_btl_self_plexus_btl_self_la_SOURCES = $(BTL_SELF_SOURCES)
components_btl_self_plexus_btl_self_la_CXXFLAGS = $(COMPONENT_CXXFLAGS)
components_btl_self_plexus_btl_self_la_LDFLAGS = $(PLUGIN_LDFLAGS)

if MCA_STATIC_btl_self
noinst_LTLIBRARIES += components/btl_self/libstatic_btl_self.la
framework_libplexus_la_LIBADD += components/btl_self/libstatic_btl_self.la
endif
components_btl_self_libstatic_btl_self_la_SOURCES = $(BTL_SELF_SOURCES)
components_btl_self_libstatic_btl_self_la_CXXFLAGS = $(COMPONENT_CXXFLAGS)

EXTRA_DIST += components/btl_self/README.md
