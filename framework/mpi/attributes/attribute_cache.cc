// Setting, reading and deleting cached attributes, and calling the keys' callbacks.
#include "mpi/attributes/attribute_cache.h"

#include <algorithm>

#include "mpi/attributes/keyvals.h"

namespace plexus::mpi {
namespace {

using Entries = std::vector<AttributeStore::Entry>;

Entries::iterator find_entry(Entries &entries, int keyval) {
    return std::find_if(entries.begin(), entries.end(), [keyval](const auto &e) { return e.keyval == keyval; });
}

}  // namespace

int run_copy_callback(Comm *from, int keyval, void *value_in, void **value_out, int *flag) {
    *flag = 0;
    Keyval *k = keyvals().find(keyval);
    // A NULL callback is taken as MPI_COMM_NULL_COPY_FN (the attribute does not follow).
    if (!k || !k->copy) return MPI_SUCCESS;
    keyvals().retain(keyval);
    const int rc = k->copy(from, keyval, k->extra_state, value_in, value_out, flag);
    keyvals().release(keyval);
    return rc;
}

int run_delete_callback(Comm *comm, int keyval, void *value) {
    Keyval *k = keyvals().find(keyval);
    if (!k || !k->del) return MPI_SUCCESS;  // NULL: MPI_COMM_NULL_DELETE_FN
    keyvals().retain(keyval);
    const int rc = k->del(comm, keyval, value, k->extra_state);
    keyvals().release(keyval);
    return rc;
}

int attribute_set(Comm *comm, int keyval, void *value) {
    Entries &entries = comm->attributes.entries;
    auto it = find_entry(entries, keyval);
    if (it == entries.end()) {
        entries.push_back({keyval, value});
        keyvals().retain(keyval);  // the attribute keeps its key alive
        return MPI_SUCCESS;
    }
    if (int rc = run_delete_callback(comm, keyval, it->value)) return rc;
    // The callback may have changed the store (it may call MPI): find the entry again.
    it = find_entry(entries, keyval);
    if (it == entries.end()) {
        entries.push_back({keyval, value});
        keyvals().retain(keyval);
    } else {
        it->value = value;
    }
    return MPI_SUCCESS;
}

bool attribute_get(const Comm *comm, int keyval, void **value) {
    for (const auto &e : comm->attributes.entries) {
        if (e.keyval != keyval) continue;
        *value = e.value;
        return true;
    }
    return false;
}

int attribute_delete(Comm *comm, int keyval) {
    Entries &entries = comm->attributes.entries;
    auto it = find_entry(entries, keyval);
    if (it == entries.end()) return -1;
    // Taken out before the callback runs, so that a callback calling MPI sees it gone and the
    // callback runs once even if it deletes the attribute itself.
    const auto position = it - entries.begin();
    const AttributeStore::Entry entry = *it;
    entries.erase(it);
    if (int rc = run_delete_callback(comm, keyval, entry.value)) {
        const auto back = std::min<std::ptrdiff_t>(position, static_cast<std::ptrdiff_t>(entries.size()));
        entries.insert(entries.begin() + back, entry);
        return rc;
    }
    keyvals().release(keyval);
    return MPI_SUCCESS;
}

}  // namespace plexus::mpi
