// The registry of attribute keys.
#include "mpi/attributes/keyvals.h"

#include <climits>

namespace plexus::mpi {

int KeyvalRegistry::create(MPI_Comm_copy_attr_function *copy, MPI_Comm_delete_attr_function *del,
                           void *extra_state) {
    std::lock_guard guard(lock_);
    if (next_ == INT_MAX) return MPI_KEYVAL_INVALID;  // two billion keys: the caller reports it
    const int id = next_++;
    keys_.emplace(id, Keyval{.copy = copy, .del = del, .extra_state = extra_state});
    return id;
}

Keyval *KeyvalRegistry::find(int keyval) {
    std::lock_guard guard(lock_);
    auto it = keys_.find(keyval);
    return it == keys_.end() ? nullptr : &it->second;  // unordered_map nodes do not move
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
