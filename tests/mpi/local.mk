# MPI point-to-point tests (tests/mpi/README.md): standard MPI C programs built against our mpi.h
# and libmpi, each case run under plexrun by tests/mpi/run_case.sh in every configuration, so
# the harness counts (and names) every (configuration, case) pair on its own.
#
# A new program needs its line in check_PROGRAMS and its four lines below; a new case, its
# tests/mpi/cases/NAME.case and its runs at the end.
mpi_test_includes = -I$(top_srcdir)/framework/mpi/include -I$(top_builddir)/framework/mpi/include
mpi_test_libs = framework/mpi/libmpi.la
# Real binaries, not libtool wrappers: plexrun starts them directly.
mpi_test_link_flags = -no-install

check_PROGRAMS += \
	tests/mpi/pingpong \
	tests/mpi/ring \
	tests/mpi/ordering \
	tests/mpi/allpairs_stress \
	tests/mpi/unexpected \
	tests/mpi/truncation \
	tests/mpi/ssend \
	tests/mpi/cancel \
	tests/mpi/persistent \
	tests/mpi/probe \
	tests/mpi/completion \
	tests/mpi/proc_null \
	tests/mpi/errors \
	tests/mpi/errors_fatal \
	tests/mpi/basics \
	tests/mpi/unreceived \
	tests/mpi/stalled_receiver

tests_mpi_pingpong_SOURCES = tests/mpi/pingpong.c tests/mpi/test_util.h
tests_mpi_pingpong_CPPFLAGS = $(mpi_test_includes)
tests_mpi_pingpong_LDADD = $(mpi_test_libs)
tests_mpi_pingpong_LDFLAGS = $(mpi_test_link_flags)
tests_mpi_ring_SOURCES = tests/mpi/ring.c tests/mpi/test_util.h
tests_mpi_ring_CPPFLAGS = $(mpi_test_includes)
tests_mpi_ring_LDADD = $(mpi_test_libs)
tests_mpi_ring_LDFLAGS = $(mpi_test_link_flags)
tests_mpi_ordering_SOURCES = tests/mpi/ordering.c tests/mpi/test_util.h
tests_mpi_ordering_CPPFLAGS = $(mpi_test_includes)
tests_mpi_ordering_LDADD = $(mpi_test_libs)
tests_mpi_ordering_LDFLAGS = $(mpi_test_link_flags)
tests_mpi_allpairs_stress_SOURCES = tests/mpi/allpairs_stress.c tests/mpi/test_util.h
tests_mpi_allpairs_stress_CPPFLAGS = $(mpi_test_includes)
tests_mpi_allpairs_stress_LDADD = $(mpi_test_libs)
tests_mpi_allpairs_stress_LDFLAGS = $(mpi_test_link_flags)
tests_mpi_unexpected_SOURCES = tests/mpi/unexpected.c tests/mpi/test_util.h
tests_mpi_unexpected_CPPFLAGS = $(mpi_test_includes)
tests_mpi_unexpected_LDADD = $(mpi_test_libs)
tests_mpi_unexpected_LDFLAGS = $(mpi_test_link_flags)
tests_mpi_truncation_SOURCES = tests/mpi/truncation.c tests/mpi/test_util.h
tests_mpi_truncation_CPPFLAGS = $(mpi_test_includes)
tests_mpi_truncation_LDADD = $(mpi_test_libs)
tests_mpi_truncation_LDFLAGS = $(mpi_test_link_flags)
tests_mpi_ssend_SOURCES = tests/mpi/ssend.c tests/mpi/test_util.h
tests_mpi_ssend_CPPFLAGS = $(mpi_test_includes)
tests_mpi_ssend_LDADD = $(mpi_test_libs)
tests_mpi_ssend_LDFLAGS = $(mpi_test_link_flags)
tests_mpi_cancel_SOURCES = tests/mpi/cancel.c tests/mpi/test_util.h
tests_mpi_cancel_CPPFLAGS = $(mpi_test_includes)
tests_mpi_cancel_LDADD = $(mpi_test_libs)
tests_mpi_cancel_LDFLAGS = $(mpi_test_link_flags)
tests_mpi_persistent_SOURCES = tests/mpi/persistent.c tests/mpi/test_util.h
tests_mpi_persistent_CPPFLAGS = $(mpi_test_includes)
tests_mpi_persistent_LDADD = $(mpi_test_libs)
tests_mpi_persistent_LDFLAGS = $(mpi_test_link_flags)
tests_mpi_probe_SOURCES = tests/mpi/probe.c tests/mpi/test_util.h
tests_mpi_probe_CPPFLAGS = $(mpi_test_includes)
tests_mpi_probe_LDADD = $(mpi_test_libs)
tests_mpi_probe_LDFLAGS = $(mpi_test_link_flags)
tests_mpi_completion_SOURCES = tests/mpi/completion.c tests/mpi/test_util.h
tests_mpi_completion_CPPFLAGS = $(mpi_test_includes)
tests_mpi_completion_LDADD = $(mpi_test_libs)
tests_mpi_completion_LDFLAGS = $(mpi_test_link_flags)
tests_mpi_proc_null_SOURCES = tests/mpi/proc_null.c tests/mpi/test_util.h
tests_mpi_proc_null_CPPFLAGS = $(mpi_test_includes)
tests_mpi_proc_null_LDADD = $(mpi_test_libs)
tests_mpi_proc_null_LDFLAGS = $(mpi_test_link_flags)
tests_mpi_errors_SOURCES = tests/mpi/errors.c tests/mpi/test_util.h
tests_mpi_errors_CPPFLAGS = $(mpi_test_includes)
tests_mpi_errors_LDADD = $(mpi_test_libs)
tests_mpi_errors_LDFLAGS = $(mpi_test_link_flags)
tests_mpi_errors_fatal_SOURCES = tests/mpi/errors_fatal.c tests/mpi/test_util.h
tests_mpi_errors_fatal_CPPFLAGS = $(mpi_test_includes)
tests_mpi_errors_fatal_LDADD = $(mpi_test_libs)
tests_mpi_errors_fatal_LDFLAGS = $(mpi_test_link_flags)
tests_mpi_basics_SOURCES = tests/mpi/basics.c tests/mpi/test_util.h
tests_mpi_basics_CPPFLAGS = $(mpi_test_includes)
tests_mpi_basics_LDADD = $(mpi_test_libs)
tests_mpi_basics_LDFLAGS = $(mpi_test_link_flags)
tests_mpi_unreceived_SOURCES = tests/mpi/unreceived.c tests/mpi/test_util.h
tests_mpi_unreceived_CPPFLAGS = $(mpi_test_includes)
tests_mpi_unreceived_LDADD = $(mpi_test_libs)
tests_mpi_unreceived_LDFLAGS = $(mpi_test_link_flags)
tests_mpi_stalled_receiver_SOURCES = tests/mpi/stalled_receiver.c tests/mpi/test_util.h
tests_mpi_stalled_receiver_CPPFLAGS = $(mpi_test_includes)
tests_mpi_stalled_receiver_LDADD = $(mpi_test_libs)
tests_mpi_stalled_receiver_LDFLAGS = $(mpi_test_link_flags)

# One generated script per run, tests/mpi/CONFIG/CASE.sh, so the harness counts and names every
# (configuration, case) pair. Written out in full: automake reads TESTS word by word and sees
# neither $(foreach) nor pattern substitutions. Adding a case: its tests/mpi/cases/NAME.case and
# one entry per configuration below (only under "default" if its case file says "configs
# default"); a new configuration: its tests/mpi/configs/NAME.conf and one more list.
# The programs and runs of the communicator, datatype and attribute suites, each in its own file.
mpi_runs_extra =
include tests/mpi/datatypes.mk
include tests/mpi/comms.mk
include tests/mpi/attrs.mk
include tests/mpi/colls.mk
include tests/mpi/coll_shm_inter.mk
include tests/mpi/mpi22_calls.mk
include tests/mpi/requests.mk
include tests/pmpi/local.mk
include tests/mpi/topology.mk
include tests/mpi/osc.mk
include tests/mpi/osc_rdma.mk
include tests/mpi/tcp.mk
include tests/mpi/dpm.mk
include tests/mpi/dpm_sm.mk
include tests/mpi/dpm_ud.mk
include tests/mpi/dpm_tcp.mk
include tests/mpi/osc_sm.mk
include tests/mpi/osc_async.mk

mpi_runs_default = tests/mpi/default/pingpong.sh tests/mpi/default/ring.sh \
	tests/mpi/default/ordering.sh tests/mpi/default/allpairs_stress.sh \
	tests/mpi/default/unexpected.sh tests/mpi/default/truncation.sh tests/mpi/default/ssend.sh \
	tests/mpi/default/cancel.sh tests/mpi/default/persistent.sh tests/mpi/default/probe.sh \
	tests/mpi/default/completion.sh tests/mpi/default/proc_null.sh tests/mpi/default/errors.sh \
	tests/mpi/default/basics.sh tests/mpi/default/basics_thread_single.sh \
	tests/mpi/default/basics_thread_funneled.sh tests/mpi/default/basics_thread_multiple.sh \
	tests/mpi/default/errors_fatal.sh tests/mpi/default/abort.sh \
	tests/mpi/default/unreceived.sh tests/mpi/default/stalled_receiver.sh
mpi_runs_self_sm = tests/mpi/self-sm/pingpong.sh tests/mpi/self-sm/ring.sh \
	tests/mpi/self-sm/ordering.sh tests/mpi/self-sm/allpairs_stress.sh \
	tests/mpi/self-sm/unexpected.sh tests/mpi/self-sm/truncation.sh tests/mpi/self-sm/ssend.sh \
	tests/mpi/self-sm/cancel.sh tests/mpi/self-sm/persistent.sh tests/mpi/self-sm/probe.sh \
	tests/mpi/self-sm/completion.sh tests/mpi/self-sm/proc_null.sh tests/mpi/self-sm/errors.sh \
	tests/mpi/self-sm/unreceived.sh
mpi_runs_no_fastbox = tests/mpi/no-fastbox/pingpong.sh tests/mpi/no-fastbox/ring.sh \
	tests/mpi/no-fastbox/ordering.sh tests/mpi/no-fastbox/allpairs_stress.sh \
	tests/mpi/no-fastbox/unexpected.sh tests/mpi/no-fastbox/truncation.sh \
	tests/mpi/no-fastbox/ssend.sh tests/mpi/no-fastbox/cancel.sh tests/mpi/no-fastbox/persistent.sh \
	tests/mpi/no-fastbox/probe.sh tests/mpi/no-fastbox/completion.sh \
	tests/mpi/no-fastbox/proc_null.sh tests/mpi/no-fastbox/errors.sh \
	tests/mpi/no-fastbox/unreceived.sh
mpi_runs_no_single_copy = tests/mpi/no-single-copy/pingpong.sh tests/mpi/no-single-copy/ring.sh \
	tests/mpi/no-single-copy/ordering.sh tests/mpi/no-single-copy/allpairs_stress.sh \
	tests/mpi/no-single-copy/unexpected.sh tests/mpi/no-single-copy/truncation.sh \
	tests/mpi/no-single-copy/ssend.sh tests/mpi/no-single-copy/cancel.sh \
	tests/mpi/no-single-copy/persistent.sh tests/mpi/no-single-copy/probe.sh \
	tests/mpi/no-single-copy/completion.sh tests/mpi/no-single-copy/proc_null.sh \
	tests/mpi/no-single-copy/errors.sh \
	tests/mpi/no-single-copy/unreceived.sh
mpi_runs_cma_always = tests/mpi/cma-always/pingpong.sh tests/mpi/cma-always/ring.sh \
	tests/mpi/cma-always/ordering.sh tests/mpi/cma-always/allpairs_stress.sh \
	tests/mpi/cma-always/unexpected.sh tests/mpi/cma-always/truncation.sh \
	tests/mpi/cma-always/ssend.sh tests/mpi/cma-always/cancel.sh tests/mpi/cma-always/persistent.sh \
	tests/mpi/cma-always/probe.sh tests/mpi/cma-always/completion.sh \
	tests/mpi/cma-always/proc_null.sh tests/mpi/cma-always/errors.sh \
	tests/mpi/cma-always/unreceived.sh
mpi_runs = $(mpi_runs_default) $(mpi_runs_self_sm) $(mpi_runs_no_fastbox) \
	$(mpi_runs_no_single_copy) $(mpi_runs_cma_always) $(mpi_runs_extra)
TESTS += $(mpi_runs)
CLEANFILES += $(mpi_runs)
$(mpi_runs): $(top_srcdir)/tests/mpi/local.mk
	$(AM_V_GEN)$(MKDIR_P) $(@D) && { \
	  echo '#!/bin/sh'; \
	  echo '# Generated by make (tests/mpi/local.mk): one case in one configuration.'; \
	  echo 'exec $(SHELL) "$${PLEXUS_TOP_SRCDIR:?run through make check}/tests/mpi/run_case.sh" \'; \
	  echo '  --config $(notdir $(@D)) $(basename $(notdir $@))'; \
	} >$@.tmp && chmod +x $@.tmp && mv -f $@.tmp $@

EXTRA_DIST += tests/mpi/README.md tests/mpi/run_case.sh tests/mpi/run_all.sh \
	tests/mpi/cases/pingpong.case tests/mpi/cases/ring.case tests/mpi/cases/ordering.case \
	tests/mpi/cases/allpairs_stress.case tests/mpi/cases/unexpected.case \
	tests/mpi/cases/truncation.case tests/mpi/cases/ssend.case tests/mpi/cases/cancel.case \
	tests/mpi/cases/persistent.case tests/mpi/cases/probe.case tests/mpi/cases/completion.case \
	tests/mpi/cases/proc_null.case tests/mpi/cases/errors.case tests/mpi/cases/basics.case \
	tests/mpi/cases/basics_thread_single.case tests/mpi/cases/basics_thread_funneled.case \
	tests/mpi/cases/basics_thread_multiple.case tests/mpi/cases/errors_fatal.case \
	tests/mpi/cases/abort.case tests/mpi/cases/unreceived.case tests/mpi/cases/stalled_receiver.case \
	tests/mpi/configs/default.conf tests/mpi/configs/self-sm.conf \
	tests/mpi/configs/no-fastbox.conf tests/mpi/configs/no-single-copy.conf \
	tests/mpi/configs/cma-always.conf
