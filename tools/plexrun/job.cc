// The job's namespaces and ranks.
#include "job.h"

#include <unistd.h>

namespace plexrun {

Namespace &Job::add_namespace(std::vector<AppSpec> apps, std::optional<ProcName> parent) {
    auto ns = std::make_unique<Namespace>();
    ns->job = static_cast<int>(namespaces_.size()) + 1;
    // Unique on this node while plexrun lives; the pid keeps two plexruns apart.
    ns->name = "plexrun." + std::to_string(::getpid()) + "." + std::to_string(ns->job);
    ns->secret = make_job_secret();
    ns->parent = std::move(parent);
    ns->apps = std::move(apps);
    uint32_t rank = 0;
    for (uint32_t app = 0; app < ns->apps.size(); ++app)
        for (int i = 0; i < ns->apps[app].procs; ++i) {
            RankRecord r;
            r.rank = rank++;
            r.app = app;
            r.app_rank = static_cast<uint32_t>(i);
            r.node_rank = next_node_rank_++;
            ns->ranks.push_back(r);
        }
    namespaces_.push_back(std::move(ns));
    return *namespaces_.back();
}

Namespace *Job::find(const std::string &nspace) {
    for (auto &ns : namespaces_)
        if (ns->name == nspace) return ns.get();
    return nullptr;
}

RankRecord *Job::find(const ProcName &proc) {
    Namespace *ns = find(proc.nspace);
    if (!ns || proc.rank >= ns->ranks.size()) return nullptr;
    return &ns->ranks[proc.rank];
}

std::pair<Namespace *, RankRecord *> Job::find(pid_t pid) {
    for (auto &ns : namespaces_)
        for (RankRecord &r : ns->ranks)
            if (r.pid == pid) return {ns.get(), &r};
    return {nullptr, nullptr};
}

int Job::running_ranks() const {
    int n = 0;
    for (auto &ns : namespaces_)
        for (const RankRecord &r : ns->ranks) n += r.running;
    return n;
}

}  // namespace plexrun
