// Judging rank ends and wording the failure messages.
#include "failure.h"

#include <sys/wait.h>

#include <cstring>

namespace plexrun {
namespace {

constexpr const char *kKilling = "; killing the job";

}  // namespace

// A spawned job's rank is named with its namespace and its parent, so that a failure deep in a
// tree of spawns says which child it was.
std::string describe_rank(const Namespace &ns, const RankRecord &r) {
    std::string job = "job " + std::to_string(ns.job);
    if (ns.parent)
        job = "namespace " + ns.name + ", " + job + " spawned by " + ns.parent->nspace + ":" +
              std::to_string(ns.parent->rank);
    return "rank " + std::to_string(r.rank) + " (" + job + ", pid " + std::to_string(r.pid) + ")";
}

std::optional<Failure> judge_rank_end(const Namespace &ns, const RankRecord &r, int wait_status) {
    std::string who = "plexrun: " + describe_rank(ns, r);
    if (WIFSIGNALED(wait_status)) {
        int sig = WTERMSIG(wait_status);
        return Failure{128 + sig, who + " was killed by signal " + std::to_string(sig) + " (" +
                                      strsignal(sig) + ")" + kKilling};
    }
    int code = WEXITSTATUS(wait_status);
    bool unfinalized = r.connected && !r.finalized;
    if (code == 0 && !unfinalized) return std::nullopt;
    std::string how = who + " exited with status " + std::to_string(code);
    if (unfinalized) how += " without calling PMIx_Finalize";
    // An exit 0 without finalize is a failure that must not exit 0.
    return Failure{code != 0 ? code : 1, how + kKilling, !unfinalized};
}

Failure abort_failure(const Namespace &ns, const RankRecord &r, int status,
                      const std::string &message) {
    int exit_status = status & 0xff ? status & 0xff : 1;
    return Failure{exit_status, "plexrun: " + describe_rank(ns, r) + " called abort: " + message +
                                    " (status " + std::to_string(status) + ")" + kKilling};
}

}  // namespace plexrun
