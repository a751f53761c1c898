# Multi-process tests of the runtime: card_exchange under plexrun with 1, 2, 4 and 8 ranks, with
# spawn and with abort, and the same program as a singleton without any launcher.
check_PROGRAMS += tests/runtime/card_exchange
tests_runtime_card_exchange_SOURCES = tests/runtime/card_exchange.cc
tests_runtime_card_exchange_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/framework
tests_runtime_card_exchange_LDADD = framework/libplexus.la
# A real binary, not a libtool wrapper: plexrun starts it, and it spawns itself.
tests_runtime_card_exchange_LDFLAGS = -no-install

runtime_tests = tests/runtime/singleton.sh tests/runtime/card_exchange.sh tests/runtime/abort.sh
TESTS += $(runtime_tests)
EXTRA_DIST += $(runtime_tests) tests/runtime/common.sh
