// What the COLL framework keeps per communicator: the hints MPI_Comm_set_info gave it, and the
// modules and dispatch chains made at the first collective call on it (not at construction: a
// program that makes 10,000 communicators and uses a few pays for a few). The choice depends
// only on the communicator's scope and the parameters, so every process makes the same one.
//
// An inter-communicator's hidden local_comm is a communicator of its own here (own scope, own
// modules). The state goes with the communicator: comm_registry's release, and MPI_Finalize for
// MPI_COMM_WORLD and MPI_COMM_SELF, call release(), which destroys the modules.
#pragma once

#include <string_view>

#include "mpi/coll/coll_chains.h"
#include "mpi/communicator.h"
#include "mpi/info/info.h"

namespace plexus::mpi::coll {

// The communicator hint that moves components to the front of every chain ("basic,sm").
constexpr std::string_view kPreferenceKey = "plexus_coll_preference";

struct CommState {
    Info hints;           // every hint set so far (MPI_Comm_get_info returns a copy)
    bool built = false;   // chains and modules exist
    Chains chains;
};

// comm's state, made empty on first use.
CommState &state_of(Comm *comm);

// Selects the components for comm and builds its chains (coll_base_verbose traces them).
[[gnu::cold]] const Chains &build_chains_of(Comm *comm);

// comm's chains, selecting and building them at the first call.
inline const Chains &chains_of(Comm *comm) {
    const CommState *st = comm->coll;
    if (st && st->built) [[likely]]
        return st->chains;
    return build_chains_of(comm);
}

// MPI_Comm_set_info: the keys of info replace or join the ones set before. When the value of
// plexus_coll_preference changes, the modules are destroyed and the next collective call selects
// again (MPI_Comm_set_info is collective, so no collective is running on comm).
void set_hints(Comm *comm, const Info &info);

// MPI_Comm_dup: the new communicator gets comm's hints (as MPI-3 says of MPI_Comm_dup), so a
// duplicate keeps the coll preference of its original.
void copy_hints(const Comm *from, Comm *to);

// Destroys comm's modules and forgets its state (hints included).
void release(Comm *comm);

}  // namespace plexus::mpi::coll
