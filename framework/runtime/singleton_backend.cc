// A job of one: everything put is only ever read back by this process, every fence is complete
// at once, and nothing can be spawned without a server to start it.
#include "runtime/singleton_backend.h"

#include <cstdio>
#include <cstdlib>

namespace plexus::runtime {

SingletonBackend::SingletonBackend() : job_(singleton_job_info()) {}

Status SingletonBackend::get_job_string(const char *key, std::string *) {
    return Status::error(PLEXUS_ERR_NOT_FOUND, std::string("no launcher: job key ") + key + " is unknown");
}

Status SingletonBackend::put(const std::string &key, const void *data, size_t len) {
    const auto *b = static_cast<const uint8_t *>(data);
    std::lock_guard guard(lock_);
    store_[key].assign(b, b + len);
    return Status::ok();
}

Status SingletonBackend::get(const ProcId &peer, const std::string &key, int,
                             std::vector<uint8_t> *out) {
    if (peer != job_.self())
        return Status::error(PLEXUS_ERR_NOT_FOUND, "singleton: no process " + peer.nspace + ":" +
                                                       std::to_string(peer.rank) + " exists");
    std::lock_guard guard(lock_);
    auto it = store_.find(key);
    if (it == store_.end()) return Status::error(PLEXUS_ERR_NOT_FOUND, "singleton: nothing put under " + key);
    *out = it->second;
    return Status::ok();
}

Status SingletonBackend::fence(const std::vector<ProcId> &procs, bool, int) {
    for (const auto &p : procs)
        if (p != job_.self())
            return Status::error(PLEXUS_ERR_NOT_FOUND, "singleton: cannot fence with " + p.nspace +
                                                           ":" + std::to_string(p.rank));
    return Status::ok();
}

Status SingletonBackend::abort(int status, const std::string &message) {
    std::fprintf(stderr, "plexus: %s: aborting with status %d: %s\n", job_.nspace.c_str(), status,
                 message.c_str());
    std::fflush(stderr);
    std::_Exit(status == 0 ? 1 : status);
}

Status SingletonBackend::spawn(const SpawnRequest &request, std::string *) {
    return Status::error(PLEXUS_ERR_NOT_SUPPORTED,
                         "cannot spawn " + request.command +
                             ": this process was started without a launcher (run it under plexrun "
                             "or another PMIx server)");
}

Status SingletonBackend::publish(const std::string &key, const std::string &value) {
    std::lock_guard guard(lock_);
    if (!published_.emplace(key, value).second)
        return Status::error(PLEXUS_ERR_EXISTS, "'" + key + "' is already published");
    return Status::ok();
}

Status SingletonBackend::lookup(const std::string &key, bool, int, std::string *value) {
    std::lock_guard guard(lock_);
    auto it = published_.find(key);
    // Waiting would be forever: nobody else can publish in a job of one.
    if (it == published_.end()) return Status::error(PLEXUS_ERR_NOT_FOUND, "nothing published under '" + key + "'");
    *value = it->second;
    return Status::ok();
}

Status SingletonBackend::unpublish(const std::string &key) {
    std::lock_guard guard(lock_);
    if (published_.erase(key) == 0) return Status::error(PLEXUS_ERR_NOT_FOUND, "nothing published under '" + key + "'");
    return Status::ok();
}

}  // namespace plexus::runtime
