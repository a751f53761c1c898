// A scripted runtime backend for unit tests: a job of any size whose key-value store is a map the
// test fills and inspects, with every call counted.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "runtime/backend.h"

namespace plexus::test {

using runtime::ProcId;
using runtime::Status;

class FakeBackend final : public runtime::Backend {
public:
    explicit FakeBackend(runtime::JobInfo job) : job_(std::move(job)) {}

    // What the "server" holds: job-level strings and (peer, key) -> bytes.
    std::map<std::string, std::string> job_strings;
    std::map<std::pair<ProcId, std::string>, std::vector<uint8_t>> remote;
    // What this process did.
    std::map<std::string, std::vector<uint8_t>> puts;
    std::vector<std::string> calls;  // "put KEY", "commit", "fence", "get NS:R KEY"

    const runtime::JobInfo &job() const override { return job_; }
    std::chrono::nanoseconds connect_time() const override { return {}; }
    Status get_job_string(const char *key, std::string *out) override {
        auto it = job_strings.find(key);
        if (it == job_strings.end()) return Status::error(PLEXUS_ERR_NOT_FOUND, "no job key");
        *out = it->second;
        return Status::ok();
    }
    Status put(const std::string &key, const void *data, size_t len) override {
        calls.push_back("put " + key);
        const auto *b = static_cast<const uint8_t *>(data);
        puts[key].assign(b, b + len);
        return Status::ok();
    }
    Status put_string(const std::string &key, const std::string &value) override {
        return put(key, value.data(), value.size());
    }
    Status commit() override {
        calls.push_back("commit");
        return Status::ok();
    }
    Status get(const ProcId &peer, const std::string &key, int, std::vector<uint8_t> *out) override {
        calls.push_back("get " + peer.nspace + ":" + std::to_string(peer.rank) + " " + key);
        auto it = remote.find({peer, key});
        if (it == remote.end()) return Status::error(PLEXUS_ERR_NOT_FOUND, "no such card");
        *out = it->second;
        return Status::ok();
    }
    Status fence(const std::vector<ProcId> &, bool, int) override {
        calls.push_back("fence");
        return Status::ok();
    }
    Status abort(int, const std::string &) override { return Status::error(PLEXUS_ERROR, "fake"); }
    Status spawn(const runtime::SpawnRequest &, std::string *) override {
        return Status::error(PLEXUS_ERR_NOT_SUPPORTED, "fake");
    }
    Status publish(const std::string &, const std::string &) override { return Status::ok(); }
    Status lookup(const std::string &, bool, int, std::string *) override {
        return Status::error(PLEXUS_ERR_NOT_FOUND, "fake");
    }
    Status unpublish(const std::string &) override { return Status::ok(); }

private:
    runtime::JobInfo job_;
};

inline runtime::JobInfo launched_job(uint32_t rank, uint32_t size) {
    runtime::JobInfo j;
    j.singleton = false;
    j.nspace = "fakejob";
    j.rank = rank;
    j.size = size;
    return j;
}

}  // namespace plexus::test
