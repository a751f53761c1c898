// Spawn. The parent root launches the children (PMIx_Spawn through services->launch) with the
// spawn's tag in their environment and sends the first handshake message; the children's rank 0
// answers from MPI_Init (meet_parent). Both groups then meet (meeting.h).
#include <cstdlib>
#include <string>
#include <vector>

#include <plexus/sdk/dpm_spawn.hpp>

#include "meeting.h"
#include "pmix_module.h"

namespace plexus::dpm_pmix {
namespace {

// The parent root's launch; codes gets one entry per process.
int launch(PmixModule &m, int n, const plexus_dpm_command_t cmds[], const std::string &tag, std::vector<int> *codes) {
    const plexus_dpm_services_t *s = m.services;
    int total = 0;
    for (int i = 0; i < n; ++i) total += cmds[i].maxprocs;
    codes->assign(static_cast<size_t>(total), PLEXUS_DPM_ERR_SPAWN);
    const std::string env_entry = std::string(kParentVariable) + "=" + tag;
    const char *env[] = {env_entry.c_str(), nullptr};
    char nspace[PLEXUS_NSPACE_MAX] = {};
    return s->launch(n, cmds, env, nspace, sizeof nspace, codes->data());
}

}  // namespace

int spawn(plexus_dpm_module_t *self, int n, const plexus_dpm_command_t cmds[], int root, plexus_coll_comm_t *comm,
          plexus_coll_comm_t **intercomm, int errcodes[]) {
    PmixModule &m = self_of(self);
    const plexus_dpm_services_t *s = m.services;
    const bool is_root = s->coll->comm_rank(comm) == root;
    std::string tag;
    std::vector<int> codes;
    int rc = PLEXUS_DPM_SUCCESS;
    if (is_root) {
        tag = unique_tag(m, "spawn");
        mark("spawn %s: launching", tag.c_str());
        rc = launch(m, n, cmds, tag, &codes);
        mark("spawn %s: the job manager answered (PMIx_Spawn returned %d)", tag.c_str(), rc);
    }
    rc = sdk::share_spawn_outcome(s, rc, &codes, root, comm, errcodes);
    if (rc != PLEXUS_DPM_SUCCESS) return rc;
    const int timeout = timeout_ms(m);
    NameChannel ch(s, tag + ".p", tag + ".c", timeout);
    rc = meet(s, is_root ? &ch : nullptr, true, root, comm, intercomm);
    if (is_root) mark("spawn %s: done (%d)", tag.c_str(), rc);
    if (rc == PLEXUS_DPM_ERR_PORT) {
        // The children never answered (they died, hang, or have no dpm component): none of them
        // is reachable, which every errcode says.
        if (errcodes)
            for (size_t i = 0; i < codes.size(); ++i) errcodes[i] = PLEXUS_DPM_ERR_SPAWN;
        if (is_root)
            s->set_error("the spawned processes did not answer within %d ms (dpm_base_connect_timeout)", timeout);
        return PLEXUS_DPM_ERR_SPAWN;
    }
    return rc;
}

int meet_parent(PmixModule &m, plexus_coll_comm_t *world, plexus_coll_comm_t **parent) {
    const plexus_dpm_services_t *s = m.services;
    const char *tag = std::getenv(kParentVariable);
    // Spawned by something else than a dpm spawn (a PMIx tool), or not at all: nobody waits.
    if (!tag || !*tag) return PLEXUS_DPM_SUCCESS;
    const std::string t = tag;
    // Whatever this process starts by other means must not take our parents for its own.
    ::unsetenv(kParentVariable);
    NameChannel ch(s, t + ".c", t + ".p", timeout_ms(m));
    const bool is_root = s->coll->comm_rank(world) == 0;
    if (is_root) mark("spawned by %s: MPI_Init reached the dpm component", t.c_str());
    const int rc = meet(s, is_root ? &ch : nullptr, false, 0, world, parent);
    if (is_root) mark("spawned by %s: met the parents (%d)", t.c_str(), rc);
    return rc;
}

}  // namespace plexus::dpm_pmix
