// Argument checks of the group and communicator calls, each reporting what is wrong.
#pragma once

#include "mpi/comm/group.h"
#include "mpi/communicator.h"

namespace plexus::mpi {

// MPI_ERR_GROUP for MPI_GROUP_NULL or something that is no (live) group; `name` is the argument.
int check_group(const char *function, const Group *group, const char *name);
// check_comm, then MPI_ERR_COMM when comm is an inter-communicator (an intra one is required).
int check_intra(const char *function, const Comm *comm, const char *name);
// check_comm, then MPI_ERR_COMM when comm is an intra-communicator.
int check_inter(const char *function, const Comm *comm, const char *name);
// MPI_ERR_RANK unless 0 <= rank < size of comm's local group.
int check_local_rank(const char *function, const Comm *comm, int rank, const char *name);
// MPI_ERR_GROUP unless every member of group is in comm's local group.
int check_subgroup(const char *function, const Comm *comm, const Group *group);

// The calling process's proc id.
uint32_t self_proc();

}  // namespace plexus::mpi
