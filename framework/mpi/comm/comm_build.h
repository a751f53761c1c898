// Communicator constructors and the destructor behind the MPI calls (the api/ files check the
// arguments a process can check alone, then call these). Each is collective over its parent,
// agrees on context ids (context_agreement.h), builds the object in the registry, inherits the
// parent's error handler and hands the new handle out. They report their own failures on the
// parent communicator and return the code.
#pragma once

#include "mpi.h"
#include "mpi/comm/group.h"
#include "mpi/communicator.h"

namespace plexus::mpi {

int comm_dup(Comm *comm, Comm **out);
int comm_split(Comm *comm, int color, int key, Comm **out);
// group: a subgroup of comm's (local) group, checked by the caller.
int comm_create(Comm *comm, Group *group, Comm **out);
// leader_rc: at the local leader, the (already reported) result of checking peer_comm,
// remote_leader and tag; the leader passes it to its group so that nobody waits for it in vain.
int intercomm_create(Comm *local_comm, int local_leader, Comm *peer_comm, int remote_leader, int tag, int leader_rc,
                     Comm **out);
int intercomm_merge(Comm *intercomm, bool high, Comm **out);
// MPI_Comm_free: attribute delete callbacks, then the handle goes; the object follows once no
// request refers to it.
int comm_free(Comm **comm);

// MPI_Finalize, after the final fence: releases every communicator still alive (freed ones
// waiting for requests, and those the program never freed: without running their attribute
// callbacks, as MPI asks only MPI_COMM_SELF's to run), and the error handlers of
// MPI_COMM_WORLD and MPI_COMM_SELF; and the groups the program did not free.
void comms_finalize();

}  // namespace plexus::mpi
