# framework/mpi/datatype/: see the files' heads. Sources go to libmpi_base (no PML needed; unit tests
# link it) or to libmpi (needs the PML or MpiState).
# The engine: constructors and bounds, the loop program (build and copy), element counting,
# argument checks of the datatype calls.
framework_mpi_libmpi_base_la_SOURCES += \
	framework/mpi/datatype/derived_type.h \
	framework/mpi/datatype/construct.h framework/mpi/datatype/construct.cc \
	framework/mpi/datatype/loop.h framework/mpi/datatype/loop_copy.cc framework/mpi/datatype/copy_small.h \
	framework/mpi/datatype/loop_build.h framework/mpi/datatype/loop_build.cc \
	framework/mpi/datatype/elements.cc framework/mpi/datatype/request_hold.cc \
	framework/mpi/datatype/typed_copy.h framework/mpi/datatype/typed_copy.cc \
	framework/mpi/datatype/type_args.h framework/mpi/datatype/type_args.cc \
	framework/mpi/datatype/subarray.h framework/mpi/datatype/subarray.cc framework/mpi/datatype/darray.cc \
	framework/mpi/datatype/external32.h framework/mpi/datatype/external32.cc
# The C API of datatypes, one family per file (datatype_queries.cc is listed in framework/mpi/local.mk).
framework_mpi_libmpi_la_SOURCES += \
	framework/mpi/api/datatype_constructors.cc framework/mpi/api/datatype_lifecycle.cc \
	framework/mpi/api/datatype_contents.cc framework/mpi/api/datatype_names.cc \
	framework/mpi/api/datatype_pack.cc \
	framework/mpi/api/datatype_subarray.cc framework/mpi/api/datatype_darray.cc \
	framework/mpi/api/datatype_external32.cc framework/mpi/api/datatype_match_size.cc \
	framework/mpi/api/datatype_mpi1.cc framework/mpi/api/datatype_attributes.cc
