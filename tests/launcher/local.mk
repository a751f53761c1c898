# Launcher tests: plexrun running PMIx clients written against the raw PMIx client API.
if HAVE_PMIX
check_PROGRAMS += tests/launcher/pmix_test_client
tests_launcher_pmix_test_client_SOURCES = tests/launcher/pmix_test_client.cc
tests_launcher_pmix_test_client_CPPFLAGS = $(AM_CPPFLAGS) $(PMIX_CFLAGS)
tests_launcher_pmix_test_client_LDADD = $(PMIX_LIBS)
check_PROGRAMS += tests/launcher/pmix_dyn_client
tests_launcher_pmix_dyn_client_SOURCES = tests/launcher/pmix_dyn_client.cc
tests_launcher_pmix_dyn_client_CPPFLAGS = $(AM_CPPFLAGS) $(PMIX_CFLAGS)
tests_launcher_pmix_dyn_client_LDADD = $(PMIX_LIBS)
TESTS += $(launcher_tests)
endif
launcher_tests = tests/launcher/cards.sh tests/launcher/failures.sh tests/launcher/environment.sh \
	tests/launcher/output.sh tests/launcher/spawn.sh tests/launcher/pubsub.sh \
	tests/launcher/signals.sh tests/launcher/options.sh tests/launcher/harness.sh \
	tests/launcher/dynamic.sh tests/launcher/across.sh tests/launcher/binding.sh
EXTRA_DIST += $(launcher_tests) tests/launcher/common.sh
