// The backend of a process started without a launcher: a job of one, whose key-value store and
// name service live in the process itself.
#pragma once

#include <map>
#include <mutex>

#include "runtime/backend.h"

namespace plexus::runtime {

class SingletonBackend final : public Backend {
public:
    SingletonBackend();

    const JobInfo &job() const override { return job_; }
    std::chrono::nanoseconds connect_time() const override { return {}; }
    Status get_job_string(const char *key, std::string *out) override;
    Status put(const std::string &key, const void *data, size_t len) override;
    Status put_string(const std::string &key, const std::string &value) override {
        return put(key, value.data(), value.size());
    }
    Status commit() override { return Status::ok(); }
    Status get(const ProcId &peer, const std::string &key, int timeout_s,
               std::vector<uint8_t> *out) override;
    Status fence(const std::vector<ProcId> &procs, bool collect, int timeout_s) override;
    Status abort(int status, const std::string &message) override;
    Status spawn(const SpawnRequest &request, std::string *nspace) override;
    Status publish(const std::string &key, const std::string &value) override;
    Status lookup(const std::string &key, bool wait, int timeout_s, std::string *value) override;
    Status unpublish(const std::string &key) override;

private:
    JobInfo job_;
    std::mutex lock_;
    std::map<std::string, std::vector<uint8_t>> store_;
    std::map<std::string, std::string> published_;
};

}  // namespace plexus::runtime
