# The BML: for each peer, the BTLs that reach it, best first (part of libmpi).
framework_mpi_libmpi_la_SOURCES += framework/mpi/bml/bml.h framework/mpi/bml/bml.cc
