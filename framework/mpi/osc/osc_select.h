// Window creation and freeing: the per-window selection of the OSC framework. Every admitted osc
// component is queried with the window's scope (osc.h); the modules are tried in rank order
// (priority, then name) and the first whose win_init succeeds on every process of the group
// serves the window. After each attempt the processes agree over the window's private
// communicator (one allreduce): a DECLINE or an error anywhere, or a process proposing another
// component, moves all of them to the next candidate together, so every process ends up with
// the same component or none. osc_base_verbose traces each decision.
#pragma once

#include "mpi/comm/group.h"
#include "mpi/osc/window.h"

namespace plexus::mpi::osc {

// MPI_Win_create (flavor CREATE) over comm, an intra-communicator, with arguments checked by the
// caller. Collective. MPI_SUCCESS with *out the new window, or the error reported on comm (no
// component serves the window: the message names each one tried and why it was refused).
int win_create(const char *function, void *base, MPI_Aint size, int disp_unit, const Info *info, Comm *comm,
               Win **out);

// MPI_Win_free: refused inside an epoch (MPI_ERR_RMA_SYNC, nothing touched), else the
// attributes' delete callbacks, then the module's win_free (collective) and destroy, then the
// private communicator. MPI_SUCCESS or the reported error (the window then stays when a delete
// callback failed or the module refused with MPI_ERR_RMA_SYNC; a module's other failures still
// free the window).
int win_free(const char *function, Win **win);

// MPI_Win_get_group: a new group object of the window's processes (the caller's reference).
Group *win_group(const Win *win);

}  // namespace plexus::mpi::osc
