# framework/mpi/coll/: the COLL framework inside the MPI layer (docs/collectives.md): per-
# communicator selection and dispatch chains, the services coll components call, and the MPI
# collective calls. The pure parts (chain building, tag mapping, argument checks) go to libmpi_base so that unit tests link them; selection, dispatch and the services
# need MpiState and the PML and go to libmpi, with the API files.
framework_mpi_libmpi_base_la_SOURCES += \
	framework/mpi/coll/coll_tags.h \
	framework/mpi/coll/coll_chains.h framework/mpi/coll/coll_chains.cc \
	framework/mpi/coll/coll_checks.h framework/mpi/coll/coll_checks.cc
framework_mpi_libmpi_la_SOURCES += \
	framework/mpi/coll/coll_handles.h \
	framework/mpi/coll/coll_state.h framework/mpi/coll/coll_state.cc \
	framework/mpi/coll/coll_dispatch.h framework/mpi/coll/coll_dispatch.cc \
	framework/mpi/coll/coll_services.h framework/mpi/coll/coll_services.cc \
	framework/mpi/coll/coll_api.h \
	framework/mpi/api/coll_barrier.cc framework/mpi/api/coll_bcast.cc \
	framework/mpi/api/coll_reduce.cc framework/mpi/api/coll_reduce_scatter.cc \
	framework/mpi/api/coll_scan.cc framework/mpi/api/coll_gather.cc \
	framework/mpi/api/coll_scatter.cc framework/mpi/api/coll_allgather.cc \
	framework/mpi/api/coll_alltoall.cc framework/mpi/api/comm_info.cc
