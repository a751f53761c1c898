// Communicator lifetimes: creation, activation in the PML, deferred release.
#include "mpi/comm/comm_registry.h"

#include <algorithm>

#include "mpi/coll/coll_state.h"
#include "mpi/errhandler.h"
#include "mpi/pml/pml.h"
#include "mpi/request_pool.h"

namespace plexus::mpi {

CommRegistry &comm_registry() {
    static CommRegistry registry;
    return registry;
}

Comm *CommRegistry::create(uint32_t context_id) {
    auto owned = std::make_unique<Comm>();
    Comm *c = owned.get();
    c->context_id = context_id;
    comms_.emplace(c, std::move(owned));
    return c;
}

void CommRegistry::activate(Pml &pml, Comm *comm) {
    pml.add_comm(comm);
    if (comm->local_comm) pml.add_comm(comm->local_comm);
}

void CommRegistry::retire(Pml *pml, const RequestPool &requests, Comm *comm) {
    comm->magic = 0;  // the program's handle is dead; requests still holding it carry on
    if (comm->local_comm) comm->local_comm->magic = 0;
    if (requests.refers_to(comm)) {
        retired_.push_back(comm);
        return;
    }
    release(pml, comm);
}

void CommRegistry::reap(Pml *pml, const RequestPool &requests) {
    auto done = [&](Comm *c) {
        if (requests.refers_to(c)) return false;
        release(pml, c);
        return true;
    };
    retired_.erase(std::remove_if(retired_.begin(), retired_.end(), done), retired_.end());
}

void CommRegistry::discard(Pml *pml, Comm *comm) { release(pml, comm); }

void CommRegistry::release(Pml *pml, Comm *comm) {
    coll::release(comm);  // its coll modules first: they may refer to local_comm's
    if (Comm *local = comm->local_comm) {
        comm->local_comm = nullptr;
        release(pml, local);
    }
    if (pml && comm->pml) pml->remove_comm(comm);
    // A user handler counts the communicators using it (the predefined ones are not counted).
    if (errhandler_valid(comm->errhandler)) errhandler_release(comm->errhandler);
    comm->errhandler = MPI_ERRORS_ARE_FATAL;
    ids.release(comm->context_id);
    comm->magic = 0;
    comms_.erase(comm);
}

void CommRegistry::release_all(Pml *pml) {
    retired_.clear();
    // Inter-communicators first: they release their hidden local communicators themselves.
    std::vector<Comm *> all;
    for (auto &[c, owned] : comms_)
        if (c->inter) all.push_back(c);
    for (Comm *c : all) release(pml, c);
    all.clear();
    for (auto &[c, owned] : comms_) all.push_back(c);
    for (Comm *c : all) release(pml, c);
    ids.reset();
}

}  // namespace plexus::mpi
