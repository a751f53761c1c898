// The launch service: what MPI_Comm_spawn(_multiple) asks of the job manager. Each command is
// resolved here first (info keys path and wdir, then PATH), so that a command that does not
// exist or cannot run fails the spawn with MPI_ERR_SPAWN and a message naming it, and nothing
// is started (a child that fails to exec would end the whole job tree under plexrun).
#pragma once

#include <string>
#include <vector>

#include <plexus/dpm.h>

#include "runtime/spawn_request.h"

namespace plexus::mpi::dpm {

// The executable cmd names: cmd itself when it holds a '/' (relative to wdir when given), else
// the first match in the info's path (colon-separated), then in PATH. Empty with *why on failure.
std::string resolve_command(const std::string &cmd, const std::string &path, const std::string &wdir,
                            std::string *why);

// The runtime's request for one command (host, arch and soft checked or accepted; wdir, path
// applied). MPI_SUCCESS or MPI_ERR_SPAWN / MPI_ERR_INFO_VALUE with *why.
int spawn_request(const plexus_dpm_command_t &cmd, const char *const *env, runtime::SpawnRequest *out,
                  std::string *why);

// services->launch.
int launch(int n, const plexus_dpm_command_t cmds[], const char *const *env, char *nspace, size_t nspace_len,
           int errcodes[]);

}  // namespace plexus::mpi::dpm
