# framework/mpi/info/: MPI_Info objects and the hint lookups C++ code uses (libmpi_base: unit tests
# link it); the C API (api/info.cc) needs MpiState and goes to libmpi.
framework_mpi_libmpi_base_la_SOURCES += framework/mpi/info/info.h framework/mpi/info/info.cc
framework_mpi_libmpi_la_SOURCES += framework/mpi/api/info.cc
