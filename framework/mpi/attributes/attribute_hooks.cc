// Attributes following their objects: copied on a dup, deleted when the object goes and, for
// the predefined communicators, at MPI_Finalize.
#include "mpi/attributes/attribute_hooks.h"

#include "mpi/attributes/attribute_cache.h"
#include "mpi/attributes/keyvals.h"

namespace plexus::mpi {

int attributes_copy(AttributeHost from, AttributeHost to) {
    // A snapshot: the callbacks may call MPI on from.
    const std::vector<AttributeStore::Entry> entries = from.store->entries;
    for (const auto &e : entries) {
        void *value = nullptr;
        int flag = 0;
        if (int rc = run_copy_callback(from, e.keyval, e.value, &value, &flag)) {
            // The copies made so far are attributes of `to`: their delete callbacks run now, once,
            // whatever the caller then does with `to`.
            attributes_delete_all(to);
            return rc;
        }
        if (!flag) continue;
        to.store->entries.push_back({e.keyval, value});
        keyvals().retain(e.keyval);
    }
    return MPI_SUCCESS;
}

int attributes_delete_all(AttributeHost host) {
    int first_error = MPI_SUCCESS;
    auto &entries = host.store->entries;
    // Latest first; each entry leaves the store before its callback, which may call MPI.
    while (!entries.empty()) {
        const AttributeStore::Entry e = entries.back();
        entries.pop_back();
        const int rc = run_delete_callback(host, e.keyval, e.value);
        if (rc != MPI_SUCCESS && first_error == MPI_SUCCESS) first_error = rc;
        keyvals().release(e.keyval);
    }
    return first_error;
}

int attributes_finalize() {
    const int self_rc = attributes_delete_all(MPI_COMM_SELF);
    const int world_rc = attributes_delete_all(MPI_COMM_WORLD);
    return self_rc != MPI_SUCCESS ? self_rc : world_rc;
}

}  // namespace plexus::mpi
