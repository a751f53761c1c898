# framework/mpi/op/: see the files' heads. Sources go to libmpi_base (no PML needed; unit tests
# link it) or to libmpi (needs the PML or MpiState).
# The predefined operations, the MPI-2.2 table of what they take, their kernels, op_apply,
# user operations and the argument checks of the reductions.
framework_mpi_libmpi_base_la_SOURCES += \
	framework/mpi/op/op.h framework/mpi/op/op_predefined.cc \
	framework/mpi/op/op_types.h framework/mpi/op/op_types.cc framework/mpi/op/op_allowed.cc \
	framework/mpi/op/op_kernels.h framework/mpi/op/op_kernels.cc framework/mpi/op/op_apply.cc \
	framework/mpi/op/op_user.h framework/mpi/op/op_user.cc \
	framework/mpi/op/op_check.h framework/mpi/op/op_check.cc
# The C API of operations (MPI_Op_create/free/commutative, MPI_Reduce_local).
framework_mpi_libmpi_la_SOURCES += framework/mpi/api/op.cc
