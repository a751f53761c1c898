# MPI programs of tests/mpi for process topologies (tests/mpi/README.md, "Process topologies"):
# each call against the sequential model of topo_model.h, at 1-8 ranks, and each misuse's class.
# Default configuration only: the topologies move few small messages.
check_PROGRAMS += tests/mpi/topo_dims tests/mpi/topo_cart tests/mpi/topo_graph tests/mpi/topo_dist_graph \
	tests/mpi/topo_errors

tests_mpi_topo_dims_SOURCES = tests/mpi/topo_dims.c tests/mpi/topo_model.h tests/mpi/test_util.h
tests_mpi_topo_dims_CPPFLAGS = $(mpi_test_includes)
tests_mpi_topo_dims_LDADD = $(mpi_test_libs)
tests_mpi_topo_dims_LDFLAGS = $(mpi_test_link_flags)
tests_mpi_topo_cart_SOURCES = tests/mpi/topo_cart.c tests/mpi/topo_model.h tests/mpi/test_util.h
tests_mpi_topo_cart_CPPFLAGS = $(mpi_test_includes)
tests_mpi_topo_cart_LDADD = $(mpi_test_libs)
tests_mpi_topo_cart_LDFLAGS = $(mpi_test_link_flags)
tests_mpi_topo_graph_SOURCES = tests/mpi/topo_graph.c tests/mpi/topo_model.h tests/mpi/test_util.h
tests_mpi_topo_graph_CPPFLAGS = $(mpi_test_includes)
tests_mpi_topo_graph_LDADD = $(mpi_test_libs)
tests_mpi_topo_graph_LDFLAGS = $(mpi_test_link_flags)
tests_mpi_topo_dist_graph_SOURCES = tests/mpi/topo_dist_graph.c tests/mpi/topo_model.h tests/mpi/test_util.h
tests_mpi_topo_dist_graph_CPPFLAGS = $(mpi_test_includes)
tests_mpi_topo_dist_graph_LDADD = $(mpi_test_libs)
tests_mpi_topo_dist_graph_LDFLAGS = $(mpi_test_link_flags)
tests_mpi_topo_errors_SOURCES = tests/mpi/topo_errors.c tests/mpi/topo_model.h tests/mpi/test_util.h
tests_mpi_topo_errors_CPPFLAGS = $(mpi_test_includes)
tests_mpi_topo_errors_LDADD = $(mpi_test_libs)
tests_mpi_topo_errors_LDFLAGS = $(mpi_test_link_flags)

mpi_runs_extra += tests/mpi/default/topo_dims.sh tests/mpi/default/topo_cart.sh \
	tests/mpi/default/topo_cart_1.sh tests/mpi/default/topo_cart_6.sh tests/mpi/default/topo_cart_bound.sh \
	tests/mpi/default/topo_graph.sh tests/mpi/default/topo_graph_1.sh tests/mpi/default/topo_dist_graph.sh \
	tests/mpi/default/topo_dist_graph_3.sh tests/mpi/default/topo_errors.sh
EXTRA_DIST += tests/mpi/cases/topo_dims.case tests/mpi/cases/topo_cart.case tests/mpi/cases/topo_cart_1.case \
	tests/mpi/cases/topo_cart_6.case tests/mpi/cases/topo_cart_bound.case tests/mpi/cases/topo_graph.case \
	tests/mpi/cases/topo_graph_1.case tests/mpi/cases/topo_dist_graph.case tests/mpi/cases/topo_dist_graph_3.case \
	tests/mpi/cases/topo_errors.case
