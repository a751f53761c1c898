// The backend of a process a PMIx server launched (plexrun, Slurm, PRRTE): the job as the server
// describes it, and its key-value store, fences, spawn and name service.
#pragma once

#include "plexus_config.h"

#ifdef PLEXUS_HAVE_PMIX

#include <memory>

#include "runtime/backend.h"
#include "runtime/pmix_client.h"

namespace plexus::runtime {

class PmixBackend final : public Backend {
public:
    // PMIx_Init and the job information; job_timeout_s bounds each job-level Get.
    static Status create(int job_timeout_s, std::unique_ptr<Backend> *out);

    const JobInfo &job() const override { return job_; }
    std::chrono::nanoseconds connect_time() const override { return client_->init_time(); }
    Status get_job_string(const char *key, std::string *out) override;
    Status put(const std::string &key, const void *data, size_t len) override;
    Status put_string(const std::string &key, const std::string &value) override {
        return client_->put_string(PmixClient::Scope::Global, key, value);
    }
    Status commit() override { return client_->commit(); }
    Status get(const ProcId &peer, const std::string &key, int timeout_s,
               std::vector<uint8_t> *out) override;
    Status fence(const std::vector<ProcId> &procs, bool collect, int timeout_s) override {
        return client_->fence(procs, collect, timeout_s);
    }
    Status abort(int status, const std::string &message) override {
        return client_->abort(status, message);
    }
    Status spawn(const SpawnRequest &request, std::string *nspace) override {
        return client_->spawn(request, nspace);
    }
    Status publish(const std::string &key, const std::string &value) override {
        return client_->publish(key, value);
    }
    Status lookup(const std::string &key, bool wait, int timeout_s, std::string *value) override {
        return client_->lookup(key, wait, timeout_s, value);
    }
    Status unpublish(const std::string &key) override { return client_->unpublish(key); }
    Status spawn_apps(const std::vector<SpawnRequest> &requests, std::string *nspace) override {
        return client_->spawn(requests, nspace);
    }
    Status publish_as(const std::string &key, const std::string &value, Persistence p) override {
        return client_->publish(key, value, p);
    }
    Status job_size_of(const std::string &nspace, int timeout_s, uint32_t *size) override {
        return client_->get_u32(nspace, std::nullopt, PMIX_JOB_SIZE, GetOptions{timeout_s, false}, size);
    }
    Status disconnect_start(const std::vector<ProcId> &procs, int timeout_s,
                            const std::shared_ptr<PendingOp> &op) override {
        return client_->disconnect_start(procs, timeout_s, op);
    }

private:
    PmixBackend(std::unique_ptr<PmixClient> client, JobInfo job, int job_timeout_s);

    std::unique_ptr<PmixClient> client_;
    JobInfo job_;
    int job_timeout_s_;
};

}  // namespace plexus::runtime

#endif  // PLEXUS_HAVE_PMIX
