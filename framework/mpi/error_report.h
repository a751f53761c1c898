// Reporting an error the way the communicator's error handler says: abort the job with the
// message (MPI_ERRORS_ARE_FATAL) or return a code that carries it (MPI_ERRORS_RETURN). Every
// function here is on the failure path only.
#pragma once

#include <string>

#include "mpi.h"
#include "mpi/communicator.h"
#include "mpi/datatype.h"

namespace plexus::mpi {

inline bool comm_valid(const Comm *c) { return c && c->magic == Comm::kMagic; }

// Hands the error to comm's handler; errors about no communicator (or an invalid one) go to
// MPI_COMM_WORLD's. Returns the code the call returns (unless the handler aborts): a new code
// carrying message, which a user handler (MPI_Comm_create_errhandler) is called with first.
[[gnu::cold]] int report_error(const Comm *comm, int error_class, const std::string &message);
[[gnu::cold, gnu::format(printf, 3, 4)]] int report_errorf(const Comm *comm, int error_class, const char *format, ...);

// Hands an error code that exists already (one a user callback returned) to comm's handler, as
// report_error does with a new one; message (naming the call) is what a fatal handler prints.
// Returns code itself.
[[gnu::cold]] int report_code(const Comm *comm, int code, const std::string &message);

// Prints message prefixed with this process's rank, then ends the job through the runtime (the
// launcher reports it with reason, or message when reason is empty, and stops the other ranks),
// or the process when no runtime is running.
[[noreturn, gnu::cold]] void abort_job(int status, const std::string &message, const std::string &reason = "");

// An MPI call where MPI is not running (before MPI_Init or after MPI_Finalize).
[[noreturn, gnu::cold]] void called_when_not_running(const char *function);

// Names for messages: "MPI_COMM_WORLD", "MPI_INT"; placeholders for null and invalid handles.
std::string comm_name(const Comm *comm);
std::string type_name(const Datatype *type);

// Tests: where abort_job goes instead of ending the process (the hook must not return).
using AbortHook = void (*)(int status, const std::string &message);
void set_abort_hook(AbortHook hook);

}  // namespace plexus::mpi
