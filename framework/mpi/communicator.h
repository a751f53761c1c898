// The library side of MPI_Comm. The PML needs only the context id, this process's rank and the
// proc id of every rank it can send to; the rest is MPI's (groups as proc-id lists, the error
// handler, name and cached attributes). comm/ builds and frees them.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "mpi.h"
#include "mpi/attributes/attribute_store.h"

namespace plexus::mpi::coll {
struct CommState;
}
namespace plexus::mpi::topo {
struct Topology;
}

struct plexus_mpi_comm_s {
    // Set while the communicator exists, so that the MPI layer rejects garbage and freed handles
    // with MPI_ERR_COMM instead of crashing on them.
    static constexpr uint32_t kMagic = 0x434f4d4d;  // "COMM"
    uint32_t magic = kMagic;
    uint32_t context_id = 0;           // point-to-point context; every process agrees on it
    int rank = MPI_UNDEFINED;          // this process's rank in the local group
    std::vector<uint32_t> local_procs; // local group: rank -> proc id
    std::vector<uint32_t> remote_procs;// ranks one sends to: == local_procs for intra-comms
    bool inter = false;
    bool predefined = false;           // MPI_COMM_WORLD / MPI_COMM_SELF: never freed
    MPI_Errhandler errhandler = MPI_ERRORS_ARE_FATAL;
    std::string name;
    plexus::mpi::AttributeStore attributes;
    void *pml = nullptr;               // the PML's per-communicator matching state
    // Inter-communicators: the intra-communicator of the local group, with a context id of its
    // own, made and freed with this one (comm/comm_registry.h); for collectives over the local
    // group. Never handed to the program.
    plexus_mpi_comm_s *local_comm = nullptr;
    // The COLL framework's state (coll/coll_state.h): hints, and the modules and dispatch chains
    // made at the first collective call; null until the communicator is used for either.
    plexus::mpi::coll::CommState *coll = nullptr;
    // The process topology (topo/topology.h: Cartesian, graph or distributed graph), or null.
    // Immutable, so MPI_Comm_dup shares it.
    std::shared_ptr<const plexus::mpi::topo::Topology> topo;

    int size() const { return static_cast<int>(local_procs.size()); }
    int remote_size() const { return static_cast<int>(remote_procs.size()); }
};

namespace plexus::mpi {
using Comm = ::plexus_mpi_comm_s;
}
