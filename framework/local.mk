# The core library: the MCA core (registry, loaders, parameters, selection), the runtime pieces
# components reach through the host API, and the installed component SDK headers.
lib_LTLIBRARIES += framework/libplexus.la

framework_libplexus_la_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/framework $(HWLOC_CFLAGS) \
	-DPLEXUS_SYSCONFDIR='"$(sysconfdir)"' -DPLEXUS_PLUGINDIR='"$(plexus_plugindir)"'
framework_libplexus_la_SOURCES = \
	framework/base/param_value.h framework/base/param_value.cc \
	framework/base/param_sources.h framework/base/param_sources.cc \
	framework/base/param_registry.h framework/base/param_registry.cc \
	framework/mca/param_c_view.h framework/mca/param_c_view.cc \
	framework/base/name_suggest.h framework/base/name_suggest.cc framework/base/text_trim.h \
	framework/mca/loader.h framework/mca/loader_backends.h framework/mca/loader_factory.cc framework/mca/loader_ltdl.cc \
	framework/mca/descriptor_check.h framework/mca/descriptor_check.cc \
	framework/mca/component_repository.h framework/mca/component_repository.cc \
	framework/mca/static_components.h \
	framework/mca/selection_list.h framework/mca/selection_list.cc \
	framework/mca/framework.h framework/mca/framework_table.h framework/mca/framework_table.cc \
	framework/mca/selection.h framework/mca/selection.cc \
	framework/base/output.h framework/base/output.cc \
	framework/base/process_settings.h framework/base/process_settings.cc \
	framework/mca/host_api.h framework/mca/host_api.cc \
	framework/mca/btl_common_params.h framework/mca/btl_common_params.cc \
	framework/mca/mca_core.h framework/mca/mca_core.cc \
	framework/runtime/topology.h framework/runtime/topology.cc framework/runtime/hwloc_plugins.h \
	framework/runtime/backoff.h framework/runtime/backoff.cc \
	framework/runtime/progress.h framework/runtime/progress.cc \
	framework/runtime/status.h framework/runtime/runtime_params.h framework/runtime/runtime_params.cc \
	framework/runtime/job_secret.h framework/runtime/job_secret.cc \
	framework/runtime/job_info.h framework/runtime/job_info.cc \
	framework/runtime/spawn_request.h framework/runtime/backend.h \
	framework/runtime/singleton_backend.h framework/runtime/singleton_backend.cc \
	framework/runtime/modex.h framework/runtime/modex.cc \
	framework/runtime/peer_secrets.h framework/runtime/peer_secrets.cc \
	framework/runtime/runtime.h framework/runtime/runtime.cc
nodist_framework_libplexus_la_SOURCES = framework/mca/static_components.cc
framework_libplexus_la_LIBADD = $(HWLOC_LIBS) $(LTDL_LIBS)
framework_libplexus_la_LDFLAGS = -version-info 0:0:0
if HAVE_PMIX
# Without PMIx the runtime is singleton-only.
framework_libplexus_la_SOURCES += \
	framework/runtime/pmix_client.h framework/runtime/pmix_client.cc \
	framework/runtime/pmix_backend.h framework/runtime/pmix_backend.cc
framework_libplexus_la_CPPFLAGS += $(PMIX_CFLAGS)
framework_libplexus_la_LIBADD += $(PMIX_LIBS)
endif
if HAVE_BOOST_DLL
framework_libplexus_la_SOURCES += framework/mca/loader_boost.cc
framework_libplexus_la_LIBADD += $(BOOST_DLL_LIBS)
endif

# The SDK: what a third-party component compiles against (no library to link).
plexusincludedir = $(includedir)/plexus
plexusinclude_HEADERS = \
	framework/include/plexus/component.h framework/include/plexus/status.h \
	framework/include/plexus/param.h framework/include/plexus/output.h \
	framework/include/plexus/topology.h framework/include/plexus/btl.h \
	framework/include/plexus/coll.h framework/include/plexus/osc.h \
	framework/include/plexus/dpm.h framework/include/plexus/reconf.h
plexussdkincludedir = $(includedir)/plexus/sdk
plexussdkinclude_HEADERS = \
	framework/include/plexus/sdk/host.hpp framework/include/plexus/sdk/reason.hpp \
	framework/include/plexus/sdk/param.hpp framework/include/plexus/sdk/descriptor.hpp \
	framework/include/plexus/sdk/process_module.hpp framework/include/plexus/sdk/progress.hpp \
	framework/include/plexus/sdk/btl_entry_points.hpp framework/include/plexus/sdk/btl_limits.hpp \
	framework/include/plexus/sdk/btl_module.hpp framework/include/plexus/sdk/btl_fast_channel.hpp
pkgconfig_DATA += framework/plexus-component.pc
# configure reads the versions the .pc file states from component.h: a new minor there reruns it.
CONFIG_STATUS_DEPENDENCIES = $(top_srcdir)/framework/include/plexus/component.h
# osc components: the module filled from a window class, the fair lock on shared words; dpm
# components: a spawn's outcome shared with every parent, the module filled from its entry points;
# timestamped trace lines of a protocol that spans processes (sdk/timeline.hpp); HMAC-SHA256
# without OpenSSL's EVP initialisation, libcrypto opened at the first MAC (sdk/hmac_sha256.hpp);
# a system library opened when a feature first needs it (sdk/on_demand_library.hpp).
plexussdkinclude_HEADERS += \
	framework/include/plexus/sdk/osc_module.hpp framework/include/plexus/sdk/ticket_rwlock.hpp \
	framework/include/plexus/sdk/dpm_spawn.hpp framework/include/plexus/sdk/dpm_module.hpp \
	framework/include/plexus/sdk/timeline.hpp framework/include/plexus/sdk/hmac_sha256.hpp \
	framework/include/plexus/sdk/on_demand_library.hpp

# The core's shared-memory services (host API 1.3's shm table, plexus/shm.h) and the header-only
# shared-memory data structures components inline (plexus/sdk/shm_*.hpp).
framework_libplexus_la_SOURCES += \
	framework/runtime/unique_fd.h framework/runtime/shm/mapping.h \
	framework/runtime/shm/fd_borrow.h framework/runtime/shm/fd_borrow.cc \
	framework/runtime/shm/fd_server.h framework/runtime/shm/fd_server.cc \
	framework/runtime/shm/segment_name.h framework/runtime/shm/segment_name.cc \
	framework/runtime/shm/shm_segment.h framework/runtime/shm/shm_segment.cc \
	framework/runtime/shm/single_copy.h framework/runtime/shm/single_copy.cc \
	framework/runtime/shm/peer_mapping.h framework/runtime/shm/peer_mapping.cc \
	framework/runtime/shm/shm_services.h framework/runtime/shm/shm_services.cc
plexusinclude_HEADERS += framework/include/plexus/shm.h
plexusshmsdkdir = $(includedir)/plexus/sdk
plexusshmsdk_HEADERS = \
	framework/include/plexus/sdk/shared_word.hpp framework/include/plexus/sdk/rel_ptr.hpp \
	framework/include/plexus/sdk/shm_fifo.hpp framework/include/plexus/sdk/shm_segment.hpp

# The core's datagram facility (host API 1.3's dgram table, plexus/dgram.h): UDP/IPv4 and, with
# rdma-core, InfiniBand UD; every datagram authenticated with HMAC-SHA256 (OpenSSL libcrypto,
# opened at the first datagram).
framework_libplexus_la_SOURCES += \
	framework/runtime/dgram/wire_format.h framework/runtime/dgram/wire_format.cc \
	framework/runtime/dgram/authenticator.h framework/runtime/dgram/authenticator.cc \
	framework/runtime/dgram/hmac_sha256.h \
	framework/runtime/dgram/replay_guard.h framework/runtime/dgram/replay_guard.cc \
	framework/runtime/dgram/reassembly.h framework/runtime/dgram/reassembly.cc \
	framework/runtime/dgram/loss_injector.h framework/runtime/dgram/transport.h \
	framework/runtime/dgram/dgram_params.h framework/runtime/dgram/dgram_params.cc \
	framework/runtime/dgram/interface_lookup.h framework/runtime/dgram/interface_lookup.cc \
	framework/runtime/dgram/udp_transport.h framework/runtime/dgram/udp_transport.cc \
	framework/runtime/dgram/ib_ud_transport.h framework/runtime/dgram/ib_ud_transport.cc \
	framework/runtime/dgram/ib_multicast.h framework/runtime/dgram/ib_multicast.cc \
	framework/runtime/dgram/endpoint.h framework/runtime/dgram/endpoint.cc \
	framework/runtime/dgram/dgram_services.h framework/runtime/dgram/dgram_services.cc
# DGRAM 1.1: reliable messages and request/response over an endpoint.
framework_libplexus_la_SOURCES += \
	framework/runtime/dgram/reliable_wire.h framework/runtime/dgram/reliable_wire.cc \
	framework/runtime/dgram/outgoing_message.h framework/runtime/dgram/outgoing_message.cc \
	framework/runtime/dgram/incoming_messages.h framework/runtime/dgram/incoming_messages.cc \
	framework/runtime/dgram/address_text.h framework/runtime/dgram/address_text.cc \
	framework/runtime/dgram/reliable.h framework/runtime/dgram/reliable.cc \
	framework/runtime/dgram/reliable_services.h framework/runtime/dgram/reliable_services.cc
# OpenSSL's headers only: libcrypto is opened at the first MAC (plexus/sdk/hmac_sha256.hpp), not
# linked, so that a process that authenticates nothing never maps it.
framework_libplexus_la_CPPFLAGS += $(CRYPTO_CFLAGS)
if HAVE_VERBS
framework_libplexus_la_CPPFLAGS += $(VERBS_CFLAGS)
framework_libplexus_la_LIBADD += $(VERBS_LIBS)
endif
plexusinclude_HEADERS += framework/include/plexus/dgram.h
