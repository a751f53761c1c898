// What the constructors share: reporting a failed step, the new objects, handing them out.
#pragma once

#include <vector>

#include "mpi/comm/comm_registry.h"
#include "mpi/comm/context_agreement.h"
#include "mpi/comm/group_ops.h"
#include "mpi/mpi_state.h"

namespace plexus::mpi::build {

// Reaps freed communicators whose requests have completed; every constructor starts with it.
void reap();

// Reports a failed internal step (error class rc from the PML) on comm.
int step_failed(const char *function, const Comm *comm, const char *step, int rc);

// count ids agreed over channel, or the reported error.
int agree(const char *function, const Comm *parent, AgreementChannel &channel, size_t count, std::vector<uint32_t> *ids);

// A new intra-communicator with id (reserved), this process at rank, the parent's handler.
Comm *make_intra(uint32_t id, ProcList procs, int rank, const Comm *parent);
// A new inter-communicator and its hidden local_comm (id local_id).
Comm *make_inter(uint32_t id, uint32_t local_id, ProcList local, ProcList remote, int rank, const Comm *parent);

// The object becomes the program's: the PML learns it, *out gets it.
void publish(Comm *c, Comm **out);
// Ids the agreement reserved that this process does not use (it gets MPI_COMM_NULL).
void give_back(const std::vector<uint32_t> &ids);

// The proc ids of `ranks` of list, in order.
ProcList procs_at(const ProcList &list, const std::vector<int> &ranks);

}  // namespace plexus::mpi::build
