// Argument checks made before anything reaches the PML. The success path is a handful of
// comparisons in one branch; only when it fails does diagnose_* find which argument was wrong
// and report it with a message that names the argument, its value and what is valid.
#pragma once

#include <climits>

#include "mpi.h"
#include "mpi/communicator.h"
#include "mpi/datatype.h"
#include "mpi/error_report.h"

namespace plexus::mpi {

// The largest tag (MPI_TAG_UB): the PML carries a 32-bit signed tag.
constexpr int kTagUpperBound = INT_MAX;

enum class Direction { Send, Recv };

inline bool peer_valid(const Comm *comm, int peer, Direction dir) {
    if (static_cast<unsigned>(peer) < static_cast<unsigned>(comm->remote_procs.size())) return true;
    return peer == MPI_PROC_NULL || (dir == Direction::Recv && peer == MPI_ANY_SOURCE);
}

inline bool tag_valid(int tag, Direction dir) { return tag >= 0 || (dir == Direction::Recv && tag == MPI_ANY_TAG); }

[[gnu::cold]] int diagnose_pt2pt(const char *function, Direction dir, const void *buf, int count,
                                 const Datatype *type, int peer, int tag, const Comm *comm);

// Send (buf, count, type, dest, tag, comm) or receive (buf, count, type, source, tag, comm)
// arguments: MPI_SUCCESS or the reported error. A NULL buffer is MPI_BOTTOM for derived types
// (their displacements may be absolute addresses); with a predefined type it is refused.
inline int check_pt2pt(const char *function, Direction dir, const void *buf, int count, const Datatype *type,
                       int peer, int tag, const Comm *comm) {
    if (comm_valid(comm) && count >= 0 && datatype_valid(type) && (buf || count == 0 || !type->predefined) &&
        peer_valid(comm, peer, dir) && tag_valid(tag, dir)) [[likely]]
        return MPI_SUCCESS;
    return diagnose_pt2pt(function, dir, buf, count, type, peer, tag, comm);
}

[[gnu::cold]] int diagnose_probe(const char *function, int source, int tag, const Comm *comm);

// MPI_Probe / MPI_Iprobe (source, tag, comm).
inline int check_probe(const char *function, int source, int tag, const Comm *comm) {
    if (comm_valid(comm) && peer_valid(comm, source, Direction::Recv) && tag_valid(tag, Direction::Recv)) [[likely]]
        return MPI_SUCCESS;
    return diagnose_probe(function, source, tag, comm);
}

// Single checks, each reporting its own error; for the calls with fewer arguments.
int check_comm(const char *function, const Comm *comm);
int check_datatype(const char *function, const Comm *comm, const Datatype *type);
// A pointer argument the call writes to or reads from (MPI_ERR_ARG when NULL).
int check_pointer(const char *function, const Comm *comm, const void *p, const char *name);

}  // namespace plexus::mpi
