# libmpi: the MPI C API (mpi.h) and the objects behind it, with the PML and BML beneath. It links
# libplexus (the MCA core and runtime); components never link libmpi.
lib_LTLIBRARIES += framework/mpi/libmpi.la
include_HEADERS = framework/mpi/include/mpi.h
MPI_CPPFLAGS = -I$(top_srcdir)/framework/mpi/include -I$(top_srcdir)/framework
framework_mpi_libmpi_la_CPPFLAGS = $(AM_CPPFLAGS) $(MPI_CPPFLAGS)
framework_mpi_libmpi_la_LIBADD = framework/mpi/libmpi_base.la framework/libplexus.la
# Calls between libmpi's own files bind inside the library (no PLT on the message path).
framework_mpi_libmpi_la_LDFLAGS = -version-info 0:0:0 -Wl,-Bsymbolic-functions
framework_mpi_libmpi_la_SOURCES = \
	framework/mpi/request.h framework/mpi/communicator.h \
	framework/mpi/proc_table.h framework/mpi/proc_table.cc

# The MPI layer's objects and rules that need no PML: handles, predefined datatypes and error
# handlers, error codes and reporting, argument checks, the request pool, the Bsend allocator,
# the memory of MPI_Alloc_mem.
# A convenience library inside libmpi, so that unit tests link it without a running PML.
noinst_LTLIBRARIES += framework/mpi/libmpi_base.la
framework_mpi_libmpi_base_la_CPPFLAGS = $(AM_CPPFLAGS) $(MPI_CPPFLAGS)
framework_mpi_libmpi_base_la_SOURCES = \
	framework/mpi/datatype.h framework/mpi/datatype_predefined.cc framework/mpi/datatype_layout.cc \
	framework/mpi/errhandler.h framework/mpi/errhandler_predefined.cc framework/mpi/errhandler_lifetime.cc \
	framework/mpi/predefined_comms.cc \
	framework/mpi/error_codes.h framework/mpi/error_codes.cc \
	framework/mpi/error_report.h framework/mpi/error_report.cc \
	framework/mpi/arg_check.h framework/mpi/arg_check.cc \
	framework/mpi/request_flags.h framework/mpi/request_pool.h framework/mpi/request_pool.cc \
	framework/mpi/request_check.h framework/mpi/request_check.cc \
	framework/mpi/request_complete.h framework/mpi/request_complete.cc \
	framework/mpi/bsend_buffer.h framework/mpi/bsend_buffer.cc \
	framework/mpi/shareable_memory.h framework/mpi/shareable_memory.cc

# The library state (MPI_Init's sequence), starting operations, and the C API, one file per family.
framework_mpi_libmpi_la_SOURCES += \
	framework/mpi/mpi_state.h framework/mpi/mpi_state.cc \
	framework/mpi/pt2pt_start.h framework/mpi/pt2pt_start.cc \
	framework/mpi/buffered_send.h framework/mpi/buffered_send.cc \
	framework/mpi/api/init_finalize.cc framework/mpi/api/environment.cc \
	framework/mpi/api/comm_basic.cc framework/mpi/api/datatype_queries.cc \
	framework/mpi/api/pt2pt_send.cc framework/mpi/api/pt2pt_recv.cc \
	framework/mpi/api/sendrecv.cc framework/mpi/api/bsend.cc \
	framework/mpi/api/probe_cancel.cc framework/mpi/api/persistent.cc \
	framework/mpi/api/request_completion.cc framework/mpi/api/request_completion_multi.cc \
	framework/mpi/api/errors.cc framework/mpi/api/alloc_mem.cc \
	framework/mpi/api/profiling.h framework/mpi/api/profiling.cc

# Generalized requests and the status setters.
framework_mpi_libmpi_la_SOURCES += \
	framework/mpi/grequest.h framework/mpi/grequest.cc \
	framework/mpi/api/grequest.cc framework/mpi/api/status_set.cc

include framework/mpi/datatype/local.mk
include framework/mpi/comm/local.mk
include framework/mpi/topo/local.mk
include framework/mpi/attributes/local.mk
include framework/mpi/info/local.mk
include framework/mpi/op/local.mk
include framework/mpi/coll/local.mk
include framework/mpi/osc/local.mk
include framework/mpi/dpm/local.mk
include framework/mpi/pml/local.mk
include framework/mpi/bml/local.mk
include tests/unit/mpi_units.mk
include tests/unit/datatype_units.mk
include tests/unit/comm_units.mk
include tests/unit/attr_units.mk
include tests/unit/op_units.mk
include tests/unit/coll_units.mk
include tests/unit/osc_units.mk

# mpi.h compiles warning-free as C and C++ of every standard, and libmpi defines all it declares.
TESTS += tests/build/mpi_header.sh
EXTRA_DIST += tests/build/mpi_header.sh tests/build/mpi_header_use.c

# The profiling interface: mpi.h's PMPI_ block is current, every MPI_ function is a weak alias of
# its PMPI_ twin, and nothing in libmpi calls an MPI_ name.
TESTS += tests/build/pmpi.sh
EXTRA_DIST += tests/build/pmpi.sh config/pmpi_prototypes.sh
