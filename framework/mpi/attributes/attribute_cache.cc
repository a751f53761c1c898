// Setting, reading and deleting cached attributes, and calling the keys' callbacks through the
// type of their kind.
#include "mpi/attributes/attribute_cache.h"

#include <algorithm>


namespace plexus::mpi {
namespace {

using Entries = std::vector<AttributeStore::Entry>;

Entries::iterator find_entry(Entries &entries, int keyval) {
    return std::find_if(entries.begin(), entries.end(), [keyval](const auto &e) { return e.keyval == keyval; });
}

template <class Handle>
int call_copy(const Keyval &k, void *handle, int keyval, void *value_in, void **value_out, int *flag) {
    auto *copy = reinterpret_cast<CopyCallback<Handle> *>(k.copy);
    return copy(static_cast<Handle>(handle), keyval, k.extra_state, value_in, value_out, flag);
}

template <class Handle>
int call_delete(const Keyval &k, void *handle, int keyval, void *value) {
    auto *del = reinterpret_cast<DeleteCallback<Handle> *>(k.del);
    return del(static_cast<Handle>(handle), keyval, value, k.extra_state);
}

}  // namespace

int run_copy_callback(AttributeHost from, int keyval, void *value_in, void **value_out, int *flag) {
    *flag = 0;
    Keyval *k = keyvals().find(keyval, from.kind);
    // A NULL callback is taken as the kind's NULL_COPY_FN (the attribute does not follow).
    if (!k || !k->copy) return MPI_SUCCESS;
    keyvals().retain(keyval);
    int rc = MPI_SUCCESS;
    switch (from.kind) {
        case AttributeKind::Comm:
            rc = call_copy<MPI_Comm>(*k, from.handle, keyval, value_in, value_out, flag);
            break;
        case AttributeKind::Datatype:
            rc = call_copy<MPI_Datatype>(*k, from.handle, keyval, value_in, value_out, flag);
            break;
        case AttributeKind::Win:
            rc = call_copy<MPI_Win>(*k, from.handle, keyval, value_in, value_out, flag);
            break;
    }
    keyvals().release(keyval);
    return rc;
}

int run_delete_callback(AttributeHost host, int keyval, void *value) {
    Keyval *k = keyvals().find(keyval, host.kind);
    if (!k || !k->del) return MPI_SUCCESS;  // NULL: the kind's NULL_DELETE_FN
    keyvals().retain(keyval);
    int rc = MPI_SUCCESS;
    switch (host.kind) {
        case AttributeKind::Comm:
            rc = call_delete<MPI_Comm>(*k, host.handle, keyval, value);
            break;
        case AttributeKind::Datatype:
            rc = call_delete<MPI_Datatype>(*k, host.handle, keyval, value);
            break;
        case AttributeKind::Win:
            rc = call_delete<MPI_Win>(*k, host.handle, keyval, value);
            break;
    }
    keyvals().release(keyval);
    return rc;
}

int attribute_set(AttributeHost host, int keyval, void *value) {
    Entries &entries = host.store->entries;
    auto it = find_entry(entries, keyval);
    if (it == entries.end()) {
        entries.push_back({keyval, value});
        keyvals().retain(keyval);  // the attribute keeps its key alive
        return MPI_SUCCESS;
    }
    if (int rc = run_delete_callback(host, keyval, it->value)) return rc;
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

bool attribute_get(const AttributeStore &store, int keyval, void **value) {
    for (const auto &e : store.entries) {
        if (e.keyval != keyval) continue;
        *value = e.value;
        return true;
    }
    return false;
}

int attribute_delete(AttributeHost host, int keyval) {
    Entries &entries = host.store->entries;
    auto it = find_entry(entries, keyval);
    if (it == entries.end()) return -1;
    // Taken out before the callback runs, so that a callback calling MPI sees it gone and the
    // callback runs once even if it deletes the attribute itself.
    const auto position = it - entries.begin();
    const AttributeStore::Entry entry = *it;
    entries.erase(it);
    if (int rc = run_delete_callback(host, keyval, entry.value)) {
        const auto back = std::min<std::ptrdiff_t>(position, static_cast<std::ptrdiff_t>(entries.size()));
        entries.insert(entries.begin() + back, entry);
        return rc;
    }
    keyvals().release(keyval);
    return MPI_SUCCESS;
}

}  // namespace plexus::mpi
