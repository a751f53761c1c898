# btl_sm: shared memory between the processes of one node. Everything but the descriptor is a
# convenience library of its own, so that the unit tests (tests/unit/test_btl_sm_*) link exactly
# what the plugin runs.
noinst_LTLIBRARIES += components/btl_sm/libsm_parts.la
components_btl_sm_libsm_parts_la_SOURCES = \
	components/btl_sm/sm_sdk.h \
	components/btl_sm/frag_pool.h components/btl_sm/frag_pool.cc \
	components/btl_sm/fastbox.h components/btl_sm/fastbox.cc \
	components/btl_sm/segment_layout.h components/btl_sm/segment_layout.cc \
	components/btl_sm/business_card.h components/btl_sm/business_card.cc \
	components/btl_sm/sm_params.h components/btl_sm/sm_params.cc \
	components/btl_sm/sm_control.h components/btl_sm/sm_endpoint.h \
	components/btl_sm/sm_module.h components/btl_sm/sm_module.cc \
	components/btl_sm/sm_progress.cc components/btl_sm/sm_send.cc components/btl_sm/sm_rdma.cc \
	components/btl_sm/sm_stall.cc
components_btl_sm_libsm_parts_la_CXXFLAGS = $(COMPONENT_CXXFLAGS)

BTL_SM_SOURCES = components/btl_sm/btl_sm_component.cc

if MCA_DSO_btl_sm
plexus_plugin_LTLIBRARIES += components/btl_sm/plexus_btl_sm.la
endif
components_btl_sm_plexus_btl_sm_la_SOURCES = $(BTL_SM_SOURCES)
components_btl_sm_plexus_btl_sm_la_CXXFLAGS = $(COMPONENT_CXXFLAGS)
components_btl_sm_plexus_btl_sm_la_LDFLAGS = $(PLUGIN_LDFLAGS)
components_btl_sm_plexus_btl_sm_la_LIBADD = components/btl_sm/libsm_parts.la

if MCA_STATIC_btl_sm
noinst_LTLIBRARIES += components/btl_sm/libstatic_btl_sm.la
framework_libplexus_la_LIBADD += components/btl_sm/libstatic_btl_sm.la
endif
components_btl_sm_libstatic_btl_sm_la_SOURCES = $(BTL_SM_SOURCES)
components_btl_sm_libstatic_btl_sm_la_CXXFLAGS = $(COMPONENT_CXXFLAGS)
components_btl_sm_libstatic_btl_sm_la_LIBADD = components/btl_sm/libsm_parts.la

EXTRA_DIST += components/btl_sm/README.md
