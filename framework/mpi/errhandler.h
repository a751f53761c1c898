// The library side of MPI_Errhandler: what happens when a call on a communicator fails. Issue 4
// has the two predefined handlers; user handlers (a function pointer) come with issue 5.
#pragma once

#include <cstdint>

#include "mpi.h"

namespace plexus::mpi {
enum class ErrorAction : uint8_t { Abort, Return };
}

struct plexus_mpi_errhandler_s {
    static constexpr uint32_t kMagic = 0x45525248;  // "ERRH"
    uint32_t magic = kMagic;
    plexus::mpi::ErrorAction action = plexus::mpi::ErrorAction::Abort;
    bool predefined = true;
    // Handles MPI_Comm_get_errhandler gave out and MPI_Errhandler_free has not taken back: a
    // predefined handler may be freed only that many times.
    int references = 0;
    const char *name = "";
};

namespace plexus::mpi {

using Errhandler = ::plexus_mpi_errhandler_s;

inline bool errhandler_valid(const Errhandler *e) { return e && e->magic == Errhandler::kMagic; }

}  // namespace plexus::mpi
