// MPI_ERRORS_ARE_FATAL and MPI_ERRORS_RETURN.
#include "mpi/errhandler.h"

using plexus::mpi::ErrorAction;
using plexus::mpi::Errhandler;

extern "C" {
constinit Errhandler plexus_mpi_errors_are_fatal{.action = ErrorAction::Abort, .name = "MPI_ERRORS_ARE_FATAL"};
constinit Errhandler plexus_mpi_errors_return{.action = ErrorAction::Return, .name = "MPI_ERRORS_RETURN"};
}
