# GoogleTest unit tests of the MCA core and the runtime. Each binary reports every test case to
# the harness. A test is one file, tests/unit/<name>.cc: add its name to unit_tests.
if HAVE_GTEST
unit_tests = \
	tests/unit/test_param_value tests/unit/test_param_sources \
	tests/unit/test_param_registry tests/unit/test_name_suggest \
	tests/unit/test_loader tests/unit/test_descriptor_check \
	tests/unit/test_selection_list tests/unit/test_selection \
	tests/unit/test_topology tests/unit/test_repository \
	tests/unit/test_progress tests/unit/test_modex \
	tests/unit/test_runtime_singleton tests/unit/test_runtime_secret \
	tests/unit/test_host_api_runtime
check_PROGRAMS += $(unit_tests)
TESTS += $(unit_tests)
endif
noinst_HEADERS += tests/unit/plugin_paths.h tests/unit/fake_backend.h

# Unit tests see the core's internal headers (AM_CPPFLAGS); programs without LDADD of their own
# link this.
AM_DEFAULT_SOURCE_EXT = .cc
LDADD = framework/libplexus.la $(GTEST_LIBS) $(HWLOC_LIBS)
