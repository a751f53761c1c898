// Starting a namespace: register it and its clients with libpmix, then fork/exec each rank
// with its environment, its stdio pipes and its binding.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "binding.h"
#include "environment.h"
#include "job.h"
#include "namespace_info.h"
#include "options.h"
#include "output_forwarder.h"
#include "pmix_server_handle.h"
#include "stdin_forwarder.h"

namespace plexrun {

// The namespace could not be started; ranks started before this stay running for the
// caller to kill. EXIT_STATUS follows the shell: 127 not found, 126 not executable.
struct LaunchError : std::runtime_error {
    LaunchError(int exit_status, const std::string &message)
        : std::runtime_error(message), exit_status(exit_status) {}
    int exit_status;
};

class NamespaceLauncher {
public:
    NamespaceLauncher(EventLoop &loop, PmixServer &server, OutputForwarder &output, Job &job,
                      const Options &options, const CoreMap *cores);

    void launch(Namespace &ns);
    // PMIX_UNIV_SIZE for a job of NEW_RANKS about to start: --universe-size, else the CPUs
    // plexrun may use or, when more run (plexrun oversubscribes), the ranks running with it.
    uint32_t universe_size(size_t new_ranks = 0) const;

private:
    std::vector<std::string> resolve_programs(const Namespace &ns) const;
    std::string search_path() const;
    void start_rank(Namespace &ns, RankRecord &r, const std::string &path, bool bind);
    int live_ranks() const;
    CoreLoad core_load();
    std::vector<std::string> environment_of(const Namespace &ns, const RankRecord &r);
    int stdin_of(const Namespace &ns, const RankRecord &r, UniqueFd *keep);

    EventLoop &loop_;
    PmixServer &server_;
    OutputForwarder &output_;
    Job &job_;
    BindPolicy bind_;
    const CoreMap *cores_;
    std::map<int, int> core_of_;  // node rank -> core, for the bound ranks that may still run
    Environment base_env_;
    NodeFacts node_;
    std::optional<int> given_universe_;
    uint32_t cpus_;
    UniqueFd devnull_;
    std::unique_ptr<StdinForwarder> stdin_forwarder_;
};

}  // namespace plexrun
