// The attribute keys of the process (MPI_Comm_create_keyval, MPI_Type_create_keyval, later
// MPI_Win_create_keyval): their kind of object, callbacks and extra state, kept alive while a
// handle or a cached attribute still refers to them, so that the free_keyval call may come
// before the attributes that use the key go. A key serves one kind of object only.
#pragma once

#include <mutex>
#include <unordered_map>

#include "mpi.h"

namespace plexus::mpi {

// The objects attributes are cached on; a key made for one kind is MPI_ERR_KEYVAL on another.
enum class AttributeKind : unsigned char { Comm, Datatype, Win };

// "communicator", "datatype", "window"; and the call that makes keys of that kind.
const char *attribute_kind_name(AttributeKind kind);
const char *attribute_keyval_maker(AttributeKind kind);

// The callbacks of every kind have the same shape; only the handle's type differs.
template <class Handle>
using CopyCallback = int(Handle, int, void *, void *, void *, int *);
template <class Handle>
using DeleteCallback = int(Handle, int, void *, void *);

struct Keyval {
    AttributeKind kind = AttributeKind::Comm;
    // The kind's callbacks (CopyCallback<MPI_Comm> ...), called through their own type only
    // (attribute_cache.cc); stored untyped so that one registry serves every kind.
    void (*copy)() = nullptr;
    void (*del)() = nullptr;
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
// The predefined window keys (MPI_WIN_BASE 8 ... MPI_WIN_DISP_UNIT 10); user keys come after them.
constexpr int kFirstPredefinedWinKeyval = MPI_WIN_BASE;
constexpr int kLastPredefinedWinKeyval = MPI_WIN_DISP_UNIT;
inline bool win_keyval_predefined(int keyval) {
    return keyval >= kFirstPredefinedWinKeyval && keyval <= kLastPredefinedWinKeyval;
}

// Keys are never reused: a stale key number is refused instead of reaching another key's
// callbacks. Lookups copy nothing out; the caller holds a reference (retain) across callbacks.
class KeyvalRegistry {
public:
    // A new key of a kind (references 1: the handle).
    template <class Handle>
    int create(AttributeKind kind, CopyCallback<Handle> *copy, DeleteCallback<Handle> *del, void *extra_state) {
        return add(Keyval{.kind = kind,
                          .copy = reinterpret_cast<void (*)()>(copy),
                          .del = reinterpret_cast<void (*)()>(del),
                          .extra_state = extra_state});
    }
    // A communicator key (MPI_Comm_create_keyval).
    int create(MPI_Comm_copy_attr_function *copy, MPI_Comm_delete_attr_function *del, void *extra_state) {
        return create<MPI_Comm>(AttributeKind::Comm, copy, del, extra_state);
    }
    // The key, or nullptr when keyval is no user key of that kind still alive. Freed keys are
    // found (their attributes still need the callbacks); callers that make new attributes check
    // `freed`.
    Keyval *find(int keyval, AttributeKind kind = AttributeKind::Comm);
    // The key whatever its kind (to say which kind a misused key is of), or nullptr.
    const Keyval *find_any(int keyval);
    void retain(int keyval);
    // Drops a reference; the key goes with the last one.
    void release(int keyval);
    // MPI_Comm_free_keyval: the handle's reference. False when keyval is no live, unfreed key.
    bool free_handle(int keyval);
    size_t live() const;  // keys not yet deleted (tests)

private:
    int add(Keyval k);

    mutable std::mutex lock_;
    std::unordered_map<int, Keyval> keys_;
    int next_ = kLastPredefinedWinKeyval + 1;
};

KeyvalRegistry &keyvals();

}  // namespace plexus::mpi
