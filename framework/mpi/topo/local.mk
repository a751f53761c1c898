# framework/mpi/topo/: process topologies (MPI-2.2 chapter 7; docs/mpi-api.md, "Process
# topologies"). The pure model (factorization, grid arithmetic, locality distance, the grid
# mapping, argument checks) goes to libmpi_base so that unit tests link it; the collective parts
# (locality exchange, the distributed graph's edge exchange, building the communicators) and the
# API files go to libmpi.
framework_mpi_libmpi_base_la_SOURCES += \
	framework/mpi/topo/topology.h \
	framework/mpi/topo/dims_create.h framework/mpi/topo/dims_create.cc \
	framework/mpi/topo/cart_geometry.h framework/mpi/topo/cart_geometry.cc \
	framework/mpi/topo/locality.h framework/mpi/topo/locality.cc \
	framework/mpi/topo/grid_map.h framework/mpi/topo/grid_map.cc \
	framework/mpi/topo/topo_checks.h framework/mpi/topo/topo_checks.cc
framework_mpi_libmpi_la_SOURCES += \
	framework/mpi/topo/locality_gather.h framework/mpi/topo/locality_gather.cc \
	framework/mpi/topo/dist_graph_exchange.h framework/mpi/topo/dist_graph_exchange.cc \
	framework/mpi/topo/topo_comm.h framework/mpi/topo/topo_comm.cc \
	framework/mpi/topo/cart_build.h framework/mpi/topo/cart_build.cc \
	framework/mpi/api/topology_cart.cc framework/mpi/api/topology_graph.cc \
	framework/mpi/api/topology_dist_graph.cc
include tests/unit/topo_units.mk
