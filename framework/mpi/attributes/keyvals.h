// The attribute keys of the process (MPI_Comm_create_keyval): their callbacks and extra state,
// kept alive while a handle or a cached attribute still refers to them, so that
// MPI_Comm_free_keyval may come before the attributes that use the key go.
#pragma once

#include <mutex>
#include <unordered_map>

#include "mpi.h"

namespace plexus::mpi {

struct Keyval {
    MPI_Comm_copy_attr_function *copy = nullptr;
    MPI_Comm_delete_attr_function *del = nullptr;
    void *extra_state = nullptr;
    int references = 1;  // the user's handle, then one per cached attribute
    bool freed = false;  // MPI_Comm_free_keyval was called: no new attributes
};

// The predefined keys (mpi.h: MPI_TAG_UB 1 ... MPI_LASTUSEDCODE 7); user keys come after them.
constexpr int kFirstPredefinedKeyval = MPI_TAG_UB;
constexpr int kLastPredefinedKeyval = MPI_LASTUSEDCODE;
inline bool keyval_predefined(int keyval) {
    return keyval >= kFirstPredefinedKeyval && keyval <= kLastPredefinedKeyval;
}

// Keys are never reused: a stale key number is refused instead of reaching another key's
// callbacks. Lookups copy nothing out; the caller holds a reference (retain) across callbacks.
class KeyvalRegistry {
public:
    // A new key (references 1: the handle).
    int create(MPI_Comm_copy_attr_function *copy, MPI_Comm_delete_attr_function *del, void *extra_state);
    // The key, or nullptr when keyval is no user key still alive. Freed keys are found (their
    // attributes still need the callbacks); callers that make new attributes check `freed`.
    Keyval *find(int keyval);
    void retain(int keyval);
    // Drops a reference; the key goes with the last one.
    void release(int keyval);
    // MPI_Comm_free_keyval: the handle's reference. False when keyval is no live, unfreed key.
    bool free_handle(int keyval);
    size_t live() const;  // keys not yet deleted (tests)

private:
    mutable std::mutex lock_;
    std::unordered_map<int, Keyval> keys_;
    int next_ = kLastPredefinedKeyval + 1;
};

KeyvalRegistry &keyvals();

}  // namespace plexus::mpi
