// The core's half of every dpm operation: context ids free at every member of one group, the
// inter-communicator of a local group and a remote group of other jobs (the remote processes
// enter the process table, the agreed id is reserved, every BTL's add_procs reaches them), and
// process names of a communicator's groups. All return MPI error classes; failures leave a
// message through dpm::set_error.
#pragma once

#include <cstdint>

#include <plexus/dpm.h>

#include "mpi/communicator.h"

namespace plexus::mpi::dpm {

// Collective over comm's group: the lowest id >= at_least free at every member (nothing reserved).
int context_id(Comm *comm, uint32_t at_least, uint32_t *cid);

// Collective over comm's group (an intra-communicator): the inter-communicator of comm's group
// and remote, on remote.context_id, with comm's error handler.
int intercomm_create(Comm *comm, const plexus_dpm_remote_group_t &remote, Comm **out);

// The process at rank of comm's local group (remote: its remote group). nspace stays valid
// until MPI_Finalize.
int proc_name(const Comm *comm, int rank, bool remote, plexus_dpm_proc_t *out);
// A namespace name that stays valid until MPI_Finalize.
const char *intern(const std::string &nspace);

}  // namespace plexus::mpi::dpm
