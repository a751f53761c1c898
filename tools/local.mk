# Tools users run: plexus_info (what is installed and what would be selected).
bin_PROGRAMS += tools/plexus_info/plexus_info
tools_plexus_info_plexus_info_SOURCES = \
	tools/plexus_info/main.cc tools/plexus_info/options.h tools/plexus_info/options.cc \
	tools/plexus_info/model.h tools/plexus_info/model.cc \
	tools/plexus_info/text_report.h tools/plexus_info/text_report.cc
tools_plexus_info_plexus_info_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/framework
tools_plexus_info_plexus_info_LDADD = framework/libplexus.la
include tools/plexrun/local.mk
include tools/mpicc/local.mk
