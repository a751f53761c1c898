// The library side of MPI_Errhandler: what happens when a call on a communicator fails. The two
// predefined handlers abort or return; a user handler (MPI_Comm_create_errhandler) is called with
// the communicator and the code, then the call returns the code.
#pragma once

#include <cstdint>

#include "mpi.h"

namespace plexus::mpi {
enum class ErrorAction : uint8_t { Abort, Return, Call };
}

struct plexus_mpi_errhandler_s {
    static constexpr uint32_t kMagic = 0x45525248;  // "ERRH"
    uint32_t magic = kMagic;
    plexus::mpi::ErrorAction action = plexus::mpi::ErrorAction::Abort;
    bool predefined = true;
    // User handlers: the user's handles plus every communicator using it; the object goes when
    // it drops to zero (errhandler_release). Predefined handlers are not counted.
    int references = 0;
    const char *name = "";
    MPI_Comm_errhandler_function *function = nullptr;  // ErrorAction::Call
    // The handles given out (MPI_Comm_create_errhandler, MPI_Comm_get_errhandler) that
    // MPI_Errhandler_free has not taken back: a handler may be freed only that many times, so
    // that freeing too often cannot take away a communicator's reference.
    int handles = 0;
    // Made by MPI_Win_create_errhandler: function is really an MPI_Win_errhandler_function, and
    // only windows take it (the predefined handlers serve every kind of object).
    bool for_win = false;
};

namespace plexus::mpi {

using Errhandler = ::plexus_mpi_errhandler_s;

inline bool errhandler_valid(const Errhandler *e) { return e && e->magic == Errhandler::kMagic; }

// A communicator starts (retain) or stops (release) using e; communicator constructors inherit
// the parent's handler through retain, MPI_Comm_free and MPI_Comm_set_errhandler release. A user
// handler is deleted when neither a handle nor a communicator refers to it any longer.
void errhandler_retain(Errhandler *e);
void errhandler_release(Errhandler *e);

}  // namespace plexus::mpi
