# Command-line tests: plexus_info as users run it, against the test components.
cli_tests = tests/cli/info_lists_frameworks.sh tests/cli/info_show_failed.sh \
	tests/cli/selection_lists.sh tests/cli/selection_ranking.sh tests/cli/params_cli.sh \
	tests/cli/info_openib_decline.sh
TESTS += $(cli_tests)
# tests/lib/checks.sh: the checks every shell test uses (cli, runtime, launcher, build, install).
EXTRA_DIST += $(cli_tests) tests/cli/common.sh tests/lib/checks.sh
