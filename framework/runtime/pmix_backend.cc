// The PMIx backend: connects, reads the job, and maps the runtime's calls onto the client.
#include "runtime/pmix_backend.h"

#ifdef PLEXUS_HAVE_PMIX

namespace plexus::runtime {

Status PmixBackend::create(int job_timeout_s, std::unique_ptr<Backend> *out) {
    std::unique_ptr<PmixClient> client;
    if (Status s = PmixClient::connect(&client); !s) return s;
    JobInfo job;
    if (Status s = job_info_from_pmix(*client, job_timeout_s, &job); !s) return s;
    out->reset(new PmixBackend(std::move(client), std::move(job), job_timeout_s));
    return Status::ok();
}

PmixBackend::PmixBackend(std::unique_ptr<PmixClient> client, JobInfo job, int job_timeout_s)
    : client_(std::move(client)), job_(std::move(job)), job_timeout_s_(job_timeout_s) {}

Status PmixBackend::get_job_string(const char *key, std::string *out) {
    // Job-level data came with PMIx_Init: look locally, never make the server wait for a key
    // it does not have (Slurm has no plexus.job.secret).
    return client_->get_string(job_.nspace, std::nullopt, key, GetOptions{job_timeout_s_, true}, out);
}

Status PmixBackend::put(const std::string &key, const void *data, size_t len) {
    return client_->put_bytes(PmixClient::Scope::Global, key, data, len);
}

Status PmixBackend::get(const ProcId &peer, const std::string &key, int timeout_s,
                        std::vector<uint8_t> *out) {
    // Not optional: a peer's data may live only with its server (direct modex), and a peer of
    // another namespace may not have committed yet; the timeout bounds the wait.
    return client_->get_bytes(peer, key, GetOptions{timeout_s, false}, out);
}

}  // namespace plexus::runtime

#endif  // PLEXUS_HAVE_PMIX
