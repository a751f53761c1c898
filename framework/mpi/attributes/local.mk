# framework/mpi/attributes/: the attribute keys, the attributes cached on communicators and datatypes, their
# callbacks on dup/free/finalize, and the predefined attributes. All in libmpi_base (unit tests
# link it); the C API (api/attributes.cc) needs MpiState and goes to libmpi.
framework_mpi_libmpi_base_la_SOURCES += \
	framework/mpi/attributes/attribute_store.h framework/mpi/attributes/attribute_hooks.h \
	framework/mpi/attributes/attribute_hooks.cc \
	framework/mpi/attributes/keyvals.h framework/mpi/attributes/keyvals.cc \
	framework/mpi/attributes/attribute_cache.h framework/mpi/attributes/attribute_cache.cc \
	framework/mpi/attributes/predefined_attributes.h framework/mpi/attributes/predefined_attributes.cc \
	framework/mpi/attributes/predefined_callbacks.cc \
	framework/mpi/attributes/type_attributes.h framework/mpi/attributes/type_attributes.cc
framework_mpi_libmpi_la_SOURCES += framework/mpi/api/attributes.cc
