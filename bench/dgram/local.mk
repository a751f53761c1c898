# bench/dgram: request/response through the datagram facility's reliable layer (DGRAM 1.1),
# round-trip and exchange time against message size and injected loss, two processes on
# loopback (docs/datagrams.md has the numbers). Built by make check so it keeps compiling; run
# by make bench-dgram, options in BENCH_DGRAM_FLAGS, e.g.
#   make bench-dgram BENCH_DGRAM_FLAGS="--loss 0,0.3 --sizes 0,1024,1048576"
EXTRA_DIST += bench/dgram/README.md
if PLEXUS_BENCH
check_PROGRAMS += bench/dgram/dgram_rr
endif
bench_dgram_dgram_rr_SOURCES = bench/dgram/dgram_rr.cc
bench_dgram_dgram_rr_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/framework
bench_dgram_dgram_rr_LDADD = framework/libplexus.la
bench_dgram_dgram_rr_LDFLAGS = -no-install
BENCH_DGRAM_FLAGS =
bench-dgram: bench/dgram/dgram_rr$(EXEEXT)
	$(MKDIR_P) '$(BENCH_RESULTS)/dgram'
	bench/dgram/dgram_rr$(EXEEXT) --csv '$(BENCH_RESULTS)/dgram/dgram_rr.csv' $(BENCH_DGRAM_FLAGS)
.PHONY: bench-dgram
