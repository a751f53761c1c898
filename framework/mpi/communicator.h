// The library side of MPI_Comm. Issue 5 grows it (groups, inter-communicators, attributes); the
// PML needs only the context id, this process's rank and the proc id of every rank it can send to.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "mpi.h"

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
    void *pml = nullptr;               // the PML's per-communicator matching state

    int size() const { return static_cast<int>(local_procs.size()); }
    int remote_size() const { return static_cast<int>(remote_procs.size()); }
};

namespace plexus::mpi {
using Comm = ::plexus_mpi_comm_s;
}
