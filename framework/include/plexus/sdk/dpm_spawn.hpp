// What every DPM component's MPI_Comm_spawn does the same way once its root has tried to start
// the children: the root's outcome and the per-process errcodes reach every parent (errcodes are
// significant at every process of the spawning communicator), so that all of them return alike.
//
//   std::vector<int> codes;                       // filled by the root, one per process
//   int rc = is_root ? start(...) : PLEXUS_DPM_SUCCESS;
//   rc = plexus::sdk::share_spawn_outcome(services, rc, &codes, root, comm, errcodes);
//   if (rc != PLEXUS_DPM_SUCCESS) return rc;      // every parent, the same class
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include <plexus/dpm.h>

namespace plexus::sdk {

// A broadcast of bytes over the spawning group, through the coll framework the core hands over.
inline int dpm_group_bcast(const plexus_dpm_services_t *s, void *buf, int bytes, int root, plexus_coll_comm_t *comm) {
    return s->coll->dispatch->bcast(nullptr, buf, bytes, s->coll->byte_type, root, comm);
}

// The root's rc and codes to every parent; errcodes (may be NULL) filled everywhere. Returns the
// root's rc, or the broadcast's error; a non-root parent told of a failure gets an error text
// pointing at the root's.
inline int share_spawn_outcome(const plexus_dpm_services_t *s, int rc, std::vector<int> *codes, int root,
                               plexus_coll_comm_t *comm, int errcodes[]) {
    int32_t head[2] = {rc, static_cast<int32_t>(codes->size())};
    if (int b = dpm_group_bcast(s, head, sizeof head, root, comm)) return b;
    codes->resize(static_cast<size_t>(head[1]));
    if (head[1] > 0)
        if (int b = dpm_group_bcast(s, codes->data(), head[1] * static_cast<int>(sizeof(int)), root, comm)) return b;
    if (errcodes)
        for (size_t i = 0; i < codes->size(); ++i) errcodes[i] = (*codes)[i];
    const bool is_root = s->coll->comm_rank(comm) == root;
    if (head[0] != PLEXUS_DPM_SUCCESS && !is_root)
        s->set_error("the root could not start the processes (its error says why)");
    return head[0];
}

}  // namespace plexus::sdk
