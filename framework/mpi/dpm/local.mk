# framework/mpi/dpm/: the DPM framework inside the MPI layer (docs/dynamic-processes.md): the
# selection of the one dpm component at MPI_Init, the services dpm modules call (launch through
# the runtime, context ids and inter-communicators across jobs), disconnect, and the MPI-2.2
# dynamic-process calls. All of it needs MpiState and the PML: libmpi.
framework_mpi_libmpi_la_SOURCES += \
	framework/mpi/dpm/dpm.h framework/mpi/dpm/dpm_select.cc \
	framework/mpi/dpm/dpm_services.h framework/mpi/dpm/dpm_services.cc \
	framework/mpi/dpm/dpm_intercomm.h framework/mpi/dpm/dpm_intercomm.cc \
	framework/mpi/dpm/dpm_launch.h framework/mpi/dpm/dpm_launch.cc \
	framework/mpi/dpm/dpm_disconnect.h framework/mpi/dpm/dpm_disconnect.cc \
	framework/mpi/dpm/dpm_cards.h framework/mpi/dpm/dpm_cards.cc \
	framework/mpi/dpm/dpm_api.h framework/mpi/dpm/dpm_api.cc \
	framework/mpi/api/dpm_spawn.cc framework/mpi/api/dpm_parent.cc framework/mpi/api/dpm_ports.cc \
	framework/mpi/api/dpm_join.cc framework/mpi/api/dpm_disconnect.cc framework/mpi/api/dpm_names.cc
