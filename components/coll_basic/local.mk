# coll_basic: every collective, intra- and inter-communicator, textbook algorithms (README.md).
COLL_BASIC_SOURCES = \
	components/coll_basic/basic_component.cc \
	components/coll_basic/basic_context.h components/coll_basic/basic_functions.h \
	components/coll_basic/basic_module.h components/coll_basic/basic_module.cc \
	components/coll_basic/basic_params.h components/coll_basic/basic_params.cc \
	components/coll_basic/basic_choice.h components/coll_basic/basic_choice.cc \
	components/coll_basic/basic_schedule.h components/coll_basic/basic_schedule.cc \
	components/coll_basic/basic_buffer.h components/coll_basic/basic_tags.h \
	components/coll_basic/basic_scratch.h components/coll_basic/basic_scratch.cc \
	components/coll_basic/basic_intra.h components/coll_basic/intra_context.cc \
	components/coll_basic/intra_halving.cc components/coll_basic/intra_direct.cc \
	components/coll_basic/intra_barrier.cc \
	components/coll_basic/intra_bcast.cc components/coll_basic/intra_reduce.cc components/coll_basic/intra_reduce_pipeline.cc \
	components/coll_basic/intra_allreduce.cc components/coll_basic/intra_gather.cc \
	components/coll_basic/intra_scatter.cc components/coll_basic/intra_allgather.cc \
	components/coll_basic/intra_alltoall.cc components/coll_basic/intra_alltoallv.cc \
	components/coll_basic/intra_reduce_scatter.cc components/coll_basic/intra_scan.cc
# Inter-communicator algorithms (inter_support.h: what they share).
COLL_BASIC_SOURCES += components/coll_basic/inter_support.h components/coll_basic/inter_support.cc \
	components/coll_basic/inter_barrier.cc components/coll_basic/inter_bcast.cc \
	components/coll_basic/inter_reduce.cc components/coll_basic/inter_allreduce.cc \
	components/coll_basic/inter_gather.cc components/coll_basic/inter_gatherv.cc \
	components/coll_basic/inter_scatter.cc components/coll_basic/inter_scatterv.cc \
	components/coll_basic/inter_allgather.cc components/coll_basic/inter_allgatherv.cc \
	components/coll_basic/inter_alltoall.cc components/coll_basic/inter_reduce_scatter.cc

if MCA_DSO_coll_basic
plexus_plugin_LTLIBRARIES += components/coll_basic/plexus_coll_basic.la
endif
components_coll_basic_plexus_coll_basic_la_SOURCES = $(COLL_BASIC_SOURCES)
components_coll_basic_plexus_coll_basic_la_CXXFLAGS = $(COMPONENT_CXXFLAGS)
components_coll_basic_plexus_coll_basic_la_LDFLAGS = $(PLUGIN_LDFLAGS)

if MCA_STATIC_coll_basic
noinst_LTLIBRARIES += components/coll_basic/libstatic_coll_basic.la
framework_libplexus_la_LIBADD += components/coll_basic/libstatic_coll_basic.la
endif
components_coll_basic_libstatic_coll_basic_la_SOURCES = $(COLL_BASIC_SOURCES)
components_coll_basic_libstatic_coll_basic_la_CXXFLAGS = $(COMPONENT_CXXFLAGS)

EXTRA_DIST += components/coll_basic/README.md
