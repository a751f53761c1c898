# MPI programs of tests/mpi (datatypes): check_PROGRAMS, their flags, and the runs they add
# to mpi_runs_extra (tests/mpi/CONFIG/CASE.sh) and EXTRA_DIST (case files).
# Shared headers: datatype_model.h (the tests' own type-map model), datatype_cases.h.
datatype_test_headers = tests/mpi/test_util.h tests/mpi/datatype_model.h

check_PROGRAMS += \
	tests/mpi/datatype_p2p \
	tests/mpi/datatype_status \
	tests/mpi/datatype_requests \
	tests/mpi/datatype_pack \
	tests/mpi/datatype_query \
	tests/mpi/datatype_errors \
	tests/mpi/datatype_subarray \
	tests/mpi/datatype_darray \
	tests/mpi/datatype_external32 \
	tests/mpi/datatype_mpi1 \
	tests/mpi/datatype_attrs

tests_mpi_datatype_p2p_SOURCES = tests/mpi/datatype_p2p.c tests/mpi/datatype_cases.h \
	$(datatype_test_headers)
tests_mpi_datatype_p2p_CPPFLAGS = $(mpi_test_includes)
tests_mpi_datatype_p2p_LDADD = $(mpi_test_libs)
tests_mpi_datatype_p2p_LDFLAGS = $(mpi_test_link_flags)
tests_mpi_datatype_status_SOURCES = tests/mpi/datatype_status.c $(datatype_test_headers)
tests_mpi_datatype_status_CPPFLAGS = $(mpi_test_includes)
tests_mpi_datatype_status_LDADD = $(mpi_test_libs)
tests_mpi_datatype_status_LDFLAGS = $(mpi_test_link_flags)
tests_mpi_datatype_requests_SOURCES = tests/mpi/datatype_requests.c $(datatype_test_headers)
tests_mpi_datatype_requests_CPPFLAGS = $(mpi_test_includes)
tests_mpi_datatype_requests_LDADD = $(mpi_test_libs)
tests_mpi_datatype_requests_LDFLAGS = $(mpi_test_link_flags)
tests_mpi_datatype_pack_SOURCES = tests/mpi/datatype_pack.c $(datatype_test_headers)
tests_mpi_datatype_pack_CPPFLAGS = $(mpi_test_includes)
tests_mpi_datatype_pack_LDADD = $(mpi_test_libs)
tests_mpi_datatype_pack_LDFLAGS = $(mpi_test_link_flags)
tests_mpi_datatype_query_SOURCES = tests/mpi/datatype_query.c tests/mpi/test_util.h
tests_mpi_datatype_query_CPPFLAGS = $(mpi_test_includes)
tests_mpi_datatype_query_LDADD = $(mpi_test_libs)
tests_mpi_datatype_query_LDFLAGS = $(mpi_test_link_flags)
tests_mpi_datatype_errors_SOURCES = tests/mpi/datatype_errors.c tests/mpi/test_util.h
tests_mpi_datatype_errors_CPPFLAGS = $(mpi_test_includes)
tests_mpi_datatype_errors_LDADD = $(mpi_test_libs)
tests_mpi_datatype_errors_LDFLAGS = $(mpi_test_link_flags)
# Issue 17: subarray, darray, external32, the MPI-1 forms and type attributes (datatype_layout.h:
# CHECK_ERR and the layout comparisons they share).
datatype_layout_headers = tests/mpi/test_util.h tests/mpi/datatype_layout.h
tests_mpi_datatype_subarray_SOURCES = tests/mpi/datatype_subarray.c $(datatype_layout_headers)
tests_mpi_datatype_subarray_CPPFLAGS = $(mpi_test_includes)
tests_mpi_datatype_subarray_LDADD = $(mpi_test_libs)
tests_mpi_datatype_subarray_LDFLAGS = $(mpi_test_link_flags)
tests_mpi_datatype_darray_SOURCES = tests/mpi/datatype_darray.c $(datatype_layout_headers)
tests_mpi_datatype_darray_CPPFLAGS = $(mpi_test_includes)
tests_mpi_datatype_darray_LDADD = $(mpi_test_libs)
tests_mpi_datatype_darray_LDFLAGS = $(mpi_test_link_flags)
tests_mpi_datatype_external32_SOURCES = tests/mpi/datatype_external32.c $(datatype_layout_headers)
tests_mpi_datatype_external32_CPPFLAGS = $(mpi_test_includes)
tests_mpi_datatype_external32_LDADD = $(mpi_test_libs)
tests_mpi_datatype_external32_LDFLAGS = $(mpi_test_link_flags)
tests_mpi_datatype_mpi1_SOURCES = tests/mpi/datatype_mpi1.c $(datatype_layout_headers)
tests_mpi_datatype_mpi1_CPPFLAGS = $(mpi_test_includes)
tests_mpi_datatype_mpi1_LDADD = $(mpi_test_libs)
tests_mpi_datatype_mpi1_LDFLAGS = $(mpi_test_link_flags)
tests_mpi_datatype_attrs_SOURCES = tests/mpi/datatype_attrs.c $(datatype_layout_headers)
tests_mpi_datatype_attrs_CPPFLAGS = $(mpi_test_includes)
tests_mpi_datatype_attrs_LDADD = $(mpi_test_libs)
tests_mpi_datatype_attrs_LDFLAGS = $(mpi_test_link_flags)

# Every case in the default configuration; the >= 1 MiB one also where the rendezvous path
# differs (no single copy: pipelined fragments; CMA for every rendezvous message).
mpi_runs_extra += tests/mpi/default/datatype_p2p.sh tests/mpi/default/datatype_large.sh \
	tests/mpi/no-single-copy/datatype_large.sh tests/mpi/cma-always/datatype_large.sh \
	tests/mpi/default/datatype_status.sh tests/mpi/default/datatype_requests.sh \
	tests/mpi/default/datatype_pack.sh tests/mpi/default/datatype_query.sh \
	tests/mpi/default/datatype_errors.sh tests/mpi/default/datatype_boundaries.sh \
	tests/mpi/no-fastbox/datatype_boundaries.sh \
	tests/mpi/default/datatype_subarray.sh tests/mpi/default/datatype_darray.sh \
	tests/mpi/default/datatype_external32.sh tests/mpi/default/datatype_mpi1.sh \
	tests/mpi/default/datatype_attrs.sh

EXTRA_DIST += tests/mpi/cases/datatype_p2p.case tests/mpi/cases/datatype_large.case \
	tests/mpi/cases/datatype_status.case tests/mpi/cases/datatype_requests.case \
	tests/mpi/cases/datatype_pack.case tests/mpi/cases/datatype_query.case \
	tests/mpi/cases/datatype_errors.case tests/mpi/cases/datatype_boundaries.case \
	tests/mpi/cases/datatype_subarray.case tests/mpi/cases/datatype_darray.case \
	tests/mpi/cases/datatype_external32.case tests/mpi/cases/datatype_mpi1.case \
	tests/mpi/cases/datatype_attrs.case
