# framework/mpi/comm/: groups, context ids, communicator construction and release (see
# docs/communicators.md). Pure parts (groups, the id bitmap and its agreement, split ordering,
# comparison) go to libmpi_base so that unit tests link them; the parts that talk through the
# PML go to libmpi, with the API files of the family.
framework_mpi_libmpi_base_la_SOURCES += \
	framework/mpi/comm/group.h framework/mpi/comm/group.cc \
	framework/mpi/comm/group_ops.h framework/mpi/comm/group_ops.cc \
	framework/mpi/comm/context_id.h framework/mpi/comm/context_id.cc \
	framework/mpi/comm/context_agreement.h framework/mpi/comm/context_agreement.cc \
	framework/mpi/comm/split_order.h framework/mpi/comm/split_order.cc \
	framework/mpi/comm/comm_compare.h framework/mpi/comm/comm_compare.cc
framework_mpi_libmpi_la_SOURCES += \
	framework/mpi/comm/internal_tags.h \
	framework/mpi/comm/internal_collectives.h framework/mpi/comm/internal_collectives.cc \
	framework/mpi/comm/agreement_channels.h framework/mpi/comm/agreement_channels.cc \
	framework/mpi/comm/comm_registry.h framework/mpi/comm/comm_registry.cc \
	framework/mpi/comm/comm_checks.h framework/mpi/comm/comm_checks.cc \
	framework/mpi/comm/comm_build.h framework/mpi/comm/comm_build_common.h \
	framework/mpi/comm/comm_build_common.cc \
	framework/mpi/comm/comm_dup.cc framework/mpi/comm/comm_split.cc framework/mpi/comm/comm_create.cc \
	framework/mpi/comm/intercomm_create.cc framework/mpi/comm/intercomm_merge.cc \
	framework/mpi/comm/comm_free.cc \
	framework/mpi/api/group_queries.cc framework/mpi/api/group_constructors.cc \
	framework/mpi/api/comm_constructors.cc framework/mpi/api/comm_queries.cc \
	framework/mpi/api/intercomm.cc
