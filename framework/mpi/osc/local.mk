# framework/mpi/osc/: the OSC framework inside the MPI layer (docs/one-sided.md): the window
# object, per-window selection, the services osc modules call, and the MPI-2.2 one-sided calls.
# The parts that need no PML (datatype descriptions, operation numbers, Fortran numbers, error
# reporting on windows) go to libmpi_base so that unit tests link them; selection, services and
# the API files need MpiState and go to libmpi.
framework_mpi_libmpi_base_la_SOURCES += \
	framework/mpi/osc/window.h \
	framework/mpi/osc/dtype_codec.h framework/mpi/osc/dtype_codec.cc \
	framework/mpi/osc/op_ids.h framework/mpi/osc/op_ids.cc \
	framework/mpi/osc/win_handles.h framework/mpi/osc/win_handles.cc \
	framework/mpi/osc/win_error.h framework/mpi/osc/win_error.cc \
	framework/mpi/osc/win_callbacks.cc
framework_mpi_libmpi_la_SOURCES += \
	framework/mpi/osc/win_checks.h framework/mpi/osc/win_checks.cc \
	framework/mpi/osc/osc_select.h framework/mpi/osc/osc_select.cc \
	framework/mpi/osc/osc_services.h framework/mpi/osc/osc_services.cc \
	framework/mpi/api/win_create.cc framework/mpi/api/win_rma.cc framework/mpi/api/win_sync.cc \
	framework/mpi/api/win_attributes.cc framework/mpi/api/win_names.cc framework/mpi/api/win_errhandler.cc
