// Who owns the communicators the program makes, and when they go. Every communicator object
// other than MPI_COMM_WORLD / MPI_COMM_SELF belongs to the registry from construction to
// release, together with the context ids it holds:
//   create   -> an object with the ids the agreement reserved (not yet known to the PML)
//   activate -> the PML matches on its context id; the handle goes to the program
//   retire   -> MPI_Comm_free: the handle is dead at once, the object stays while a request
//               still refers to it (pending operations complete normally), then is released
//   release  -> removed from the PML, ids returned, object deleted
// An inter-communicator owns its hidden local_comm (the intra-communicator of its local group)
// and releases it with itself. MPI_Finalize releases whatever the program did not free.
#pragma once

#include <cstdint>
#include <memory>
#include <unordered_map>
#include <vector>

#include "mpi/comm/context_id.h"
#include "mpi/communicator.h"

namespace plexus::mpi {

class Pml;
class RequestPool;

class CommRegistry {
public:
    ContextIdAllocator ids;

    // A new object owned by the registry. context_id must already be reserved in ids.
    Comm *create(uint32_t context_id);
    // Known to the PML from here on.
    void activate(Pml &pml, Comm *comm);
    // MPI_Comm_free (after the attribute callbacks ran): invalidates the handle; releases now,
    // or once no request refers to comm any more. (pml: null in unit tests, where no
    // communicator was activated.)
    void retire(Pml *pml, const RequestPool &requests, Comm *comm);
    // Gives back a context id reserved by an agreement but not used by any object here.
    void unused_id(uint32_t id) { ids.release(id); }
    // Releases retired communicators that no request refers to any longer.
    void reap(Pml *pml, const RequestPool &requests);
    // Releases an object that never became the program's (construction failed): ids and all.
    void discard(Pml *pml, Comm *comm);
    // MPI_Finalize: every communicator still here, freed or not, then the id bitmap starts over.
    void release_all(Pml *pml);

    size_t count() const { return comms_.size(); }     // objects alive, hidden ones included
    // fn(const Comm *) for every object alive (MPI_Comm_disconnect asks which peers are still used).
    template <class Fn>
    void for_each(Fn &&fn) const {
        for (const auto &entry : comms_) fn(entry.first);
    }
    size_t retired() const { return retired_.size(); }  // freed, waiting for requests

private:
    void release(Pml *pml, Comm *comm);

    std::unordered_map<Comm *, std::unique_ptr<Comm>> comms_;
    std::vector<Comm *> retired_;
};

// The process's registry (hidden: reached on construction paths only).
[[gnu::visibility("hidden")]] CommRegistry &comm_registry();

}  // namespace plexus::mpi
