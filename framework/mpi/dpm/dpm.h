// The DPM framework inside the MPI layer (docs/dynamic-processes.md): the one dpm component
// selected at MPI_Init, the parent inter-communicator it builds there, and the message a module
// left for the error it is about to return. The MPI calls (api/dpm_*.cc) reach the module here.
#pragma once

#include <string>

#include <plexus/dpm.h>

#include "mpi/communicator.h"

namespace plexus::mpi::dpm {

// MPI_Init, after the predefined communicators exist: selects the component and runs its init
// over MPI_COMM_WORLD (a spawned job meets its parents there); a module that fails there ends the
// job with its message.
void init(const char *function);
// MPI_Finalize, before the final fence: the module's finalize (ports closed, names withdrawn).
void finalize();

// The module, or nullptr with *why saying why none serves this process.
plexus_dpm_module_t *module(std::string *why);
// MPI_Comm_get_parent: the parent inter-communicator, or nullptr.
Comm *parent();
// comm is going away (MPI_Comm_free, MPI_Comm_disconnect): if it is the parent, the parent is
// MPI_COMM_NULL from now on.
void forget(const Comm *comm);

// The message services->set_error left for the error being returned (then cleared).
std::string take_error();
void set_error(const std::string &message);

}  // namespace plexus::mpi::dpm
