// The registry of attribute keys.
#include "mpi/attributes/keyvals.h"

#include <climits>

namespace plexus::mpi {

const char *attribute_kind_name(AttributeKind kind) {
    switch (kind) {
        case AttributeKind::Comm:
            return "communicator";
        case AttributeKind::Datatype:
            return "datatype";
        case AttributeKind::Win:
            return "window";
    }
    return "?";
}

const char *attribute_keyval_maker(AttributeKind kind) {
    switch (kind) {
        case AttributeKind::Comm:
            return "MPI_Comm_create_keyval";
        case AttributeKind::Datatype:
            return "MPI_Type_create_keyval";
        case AttributeKind::Win:
            return "MPI_Win_create_keyval";
    }
    return "?";
}

int KeyvalRegistry::add(Keyval k) {
    std::lock_guard guard(lock_);
    if (next_ == INT_MAX) return MPI_KEYVAL_INVALID;  // two billion keys: the caller reports it
    const int id = next_++;
    keys_.emplace(id, k);
    return id;
}

Keyval *KeyvalRegistry::find(int keyval, AttributeKind kind) {
    std::lock_guard guard(lock_);
    auto it = keys_.find(keyval);
    // unordered_map nodes do not move: the pointer stays good while the key lives
    return it == keys_.end() || it->second.kind != kind ? nullptr : &it->second;
}

const Keyval *KeyvalRegistry::find_any(int keyval) {
    std::lock_guard guard(lock_);
    auto it = keys_.find(keyval);
    return it == keys_.end() ? nullptr : &it->second;
}

void KeyvalRegistry::retain(int keyval) {
    std::lock_guard guard(lock_);
    if (auto it = keys_.find(keyval); it != keys_.end()) ++it->second.references;
}

void KeyvalRegistry::release(int keyval) {
    std::lock_guard guard(lock_);
    auto it = keys_.find(keyval);
    if (it != keys_.end() && --it->second.references == 0) keys_.erase(it);
}

bool KeyvalRegistry::free_handle(int keyval) {
    std::lock_guard guard(lock_);
    auto it = keys_.find(keyval);
    if (it == keys_.end() || it->second.freed) return false;
    it->second.freed = true;
    if (--it->second.references == 0) keys_.erase(it);
    return true;
}

size_t KeyvalRegistry::live() const {
    std::lock_guard guard(lock_);
    return keys_.size();
}

KeyvalRegistry &keyvals() {
    static KeyvalRegistry registry;
    return registry;
}

}  // namespace plexus::mpi
