# GoogleTest unit tests of the MCA core and the runtime. Each binary reports every test case to
# the harness. A test is one file, tests/unit/<name>.cc: add its name to unit_tests.
if HAVE_GTEST
unit_tests = \
	tests/unit/test_param_value tests/unit/test_param_sources \
	tests/unit/test_param_registry tests/unit/test_name_suggest \
	tests/unit/test_loader tests/unit/test_descriptor_check tests/unit/test_sdk \
	tests/unit/test_framework_table tests/unit/test_framework_modules \
	tests/unit/test_process_settings \
	tests/unit/test_selection_list tests/unit/test_selection \
	tests/unit/test_topology tests/unit/test_repository \
	tests/unit/test_progress tests/unit/test_modex tests/unit/test_peer_secrets \
	tests/unit/test_runtime_singleton tests/unit/test_runtime_secret \
	tests/unit/test_host_api_runtime
check_PROGRAMS += $(unit_tests)
TESTS += $(unit_tests)
endif
noinst_HEADERS += tests/unit/plugin_paths.h tests/unit/good_plugin_core.h tests/unit/fake_backend.h tests/unit/btl_sm_test_support.h \
	tests/unit/registry_host.h

# Unit tests see the core's internal headers (AM_CPPFLAGS); programs without LDADD of their own
# link this.
AM_DEFAULT_SOURCE_EXT = .cc
LDADD = framework/libplexus.la $(GTEST_LIBS) $(HWLOC_LIBS)

# The framework table's test checks plexus_info's model against the table, so it builds that in.
if HAVE_GTEST
tests_unit_test_framework_table_SOURCES = tests/unit/test_framework_table.cc tools/plexus_info/model.cc
tests_unit_test_framework_table_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/tools
endif

# The datagram facility (framework/runtime/dgram/), through its C table, over loopback.
if HAVE_GTEST
dgram_unit_tests = \
	tests/unit/test_runtime_dgram_unicast tests/unit/test_runtime_dgram_multicast \
	tests/unit/test_runtime_dgram_fragments tests/unit/test_runtime_dgram_auth \
	tests/unit/test_runtime_dgram_fuzz tests/unit/test_runtime_dgram_loss \
	tests/unit/test_runtime_dgram_ib tests/unit/test_runtime_dgram_defaults \
	tests/unit/test_runtime_dgram_bounds tests/unit/test_runtime_dgram_hmac
check_PROGRAMS += $(dgram_unit_tests)
TESTS += $(dgram_unit_tests)
# Compares the core's HMAC with OpenSSL's own.
tests_unit_test_runtime_dgram_hmac_LDADD = $(LDADD) $(CRYPTO_LIBS)
# DGRAM 1.1's reliable layer: its parts, request/response under loss, faults, fuzz.
dgram_reliable_tests = \
	tests/unit/test_runtime_dgram_reliable_parts tests/unit/test_runtime_dgram_reliable \
	tests/unit/test_runtime_dgram_reliable_faults tests/unit/test_runtime_dgram_reliable_fuzz
check_PROGRAMS += $(dgram_reliable_tests)
TESTS += $(dgram_reliable_tests)
endif
noinst_HEADERS += tests/unit/dgram_test_support.h tests/unit/dgram_reliable_support.h

# The core's shared-memory services (framework/runtime/shm/, through host API 1.3's shm table)
# and the SDK's shared-memory FIFO.
if HAVE_GTEST
shm_unit_tests = \
	tests/unit/test_runtime_shm_segment tests/unit/test_runtime_shm_single_copy \
	tests/unit/test_host_api_shm tests/unit/test_sdk_shm_fifo tests/unit/test_host_api_shm_peer_map
check_PROGRAMS += $(shm_unit_tests)
TESTS += $(shm_unit_tests)
endif

# The SDK's osc module helper (plexus/sdk/osc_module.hpp).
if HAVE_GTEST
check_PROGRAMS += tests/unit/test_sdk_osc
TESTS += tests/unit/test_sdk_osc
endif

# The SDK's BTL pieces: fast-channel state, module handle, receive table, limits checks.
if HAVE_GTEST
check_PROGRAMS += tests/unit/test_sdk_btl
TESTS += tests/unit/test_sdk_btl
endif
