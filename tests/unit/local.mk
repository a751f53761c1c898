# GoogleTest unit tests of the MCA core. Each binary reports every test case to the harness.
if HAVE_GTEST
UNIT_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/framework $(GTEST_CFLAGS) $(HWLOC_CFLAGS)
UNIT_LDADD = framework/libplexus.la $(GTEST_LIBS)

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

tests_unit_test_param_value_SOURCES = tests/unit/test_param_value.cc
tests_unit_test_param_value_CPPFLAGS = $(UNIT_CPPFLAGS)
tests_unit_test_param_value_LDADD = $(UNIT_LDADD)
tests_unit_test_param_sources_SOURCES = tests/unit/test_param_sources.cc
tests_unit_test_param_sources_CPPFLAGS = $(UNIT_CPPFLAGS)
tests_unit_test_param_sources_LDADD = $(UNIT_LDADD)
tests_unit_test_param_registry_SOURCES = tests/unit/test_param_registry.cc
tests_unit_test_param_registry_CPPFLAGS = $(UNIT_CPPFLAGS)
tests_unit_test_param_registry_LDADD = $(UNIT_LDADD)
tests_unit_test_name_suggest_SOURCES = tests/unit/test_name_suggest.cc
tests_unit_test_name_suggest_CPPFLAGS = $(UNIT_CPPFLAGS)
tests_unit_test_name_suggest_LDADD = $(UNIT_LDADD)
tests_unit_test_loader_SOURCES = tests/unit/test_loader.cc tests/unit/plugin_paths.h
tests_unit_test_loader_CPPFLAGS = $(UNIT_CPPFLAGS)
tests_unit_test_loader_LDADD = $(UNIT_LDADD)
tests_unit_test_descriptor_check_SOURCES = tests/unit/test_descriptor_check.cc
tests_unit_test_descriptor_check_CPPFLAGS = $(UNIT_CPPFLAGS)
tests_unit_test_descriptor_check_LDADD = $(UNIT_LDADD)
tests_unit_test_selection_list_SOURCES = tests/unit/test_selection_list.cc
tests_unit_test_selection_list_CPPFLAGS = $(UNIT_CPPFLAGS)
tests_unit_test_selection_list_LDADD = $(UNIT_LDADD)
tests_unit_test_selection_SOURCES = tests/unit/test_selection.cc tests/unit/plugin_paths.h
tests_unit_test_selection_CPPFLAGS = $(UNIT_CPPFLAGS)
tests_unit_test_selection_LDADD = $(UNIT_LDADD)
tests_unit_test_topology_SOURCES = tests/unit/test_topology.cc
tests_unit_test_topology_CPPFLAGS = $(UNIT_CPPFLAGS)
tests_unit_test_topology_LDADD = $(UNIT_LDADD) $(HWLOC_LIBS)
tests_unit_test_repository_SOURCES = tests/unit/test_repository.cc tests/unit/plugin_paths.h
tests_unit_test_repository_CPPFLAGS = $(UNIT_CPPFLAGS)
tests_unit_test_repository_LDADD = $(UNIT_LDADD)
tests_unit_test_progress_SOURCES = tests/unit/test_progress.cc
tests_unit_test_progress_CPPFLAGS = $(UNIT_CPPFLAGS)
tests_unit_test_progress_LDADD = $(UNIT_LDADD)
tests_unit_test_modex_SOURCES = tests/unit/test_modex.cc tests/unit/fake_backend.h
tests_unit_test_modex_CPPFLAGS = $(UNIT_CPPFLAGS)
tests_unit_test_modex_LDADD = $(UNIT_LDADD)
tests_unit_test_runtime_singleton_SOURCES = tests/unit/test_runtime_singleton.cc
tests_unit_test_runtime_singleton_CPPFLAGS = $(UNIT_CPPFLAGS)
tests_unit_test_runtime_singleton_LDADD = $(UNIT_LDADD)
tests_unit_test_runtime_secret_SOURCES = tests/unit/test_runtime_secret.cc tests/unit/fake_backend.h
tests_unit_test_runtime_secret_CPPFLAGS = $(UNIT_CPPFLAGS)
tests_unit_test_runtime_secret_LDADD = $(UNIT_LDADD)
tests_unit_test_host_api_runtime_SOURCES = tests/unit/test_host_api_runtime.cc tests/unit/plugin_paths.h
tests_unit_test_host_api_runtime_CPPFLAGS = $(UNIT_CPPFLAGS)
tests_unit_test_host_api_runtime_LDADD = $(UNIT_LDADD)
endif
