// When a rank's end fails the job, the status plexrun exits with and the one message it
// prints ("plexrun: rank 2 (job 1, pid 1234) was killed by signal 11 (...); killing the job").
#pragma once

#include <optional>
#include <string>

#include "job.h"

namespace plexrun {

struct Failure {
    int exit_status;
    std::string message;
    // A plain non-zero exit: the status says it all, and test harnesses that compare output
    // want nothing more, so the message is printed only under --verbose. Signals, aborts and
    // missing finalizes are always explained.
    bool ordinary = false;
};

// "rank 2 (job 1, pid 1234)"; of a spawned job
// "rank 0 (namespace plexrun.77.2, job 2 spawned by plexrun.77.1:3, pid 1240)"
std::string describe_rank(const Namespace &ns, const RankRecord &r);

// nullopt for a clean end: exit 0, after PMIx_Finalize if the rank called PMIx_Init.
std::optional<Failure> judge_rank_end(const Namespace &ns, const RankRecord &r, int wait_status);
// PMIx_Abort: the given status, or 1 if that is 0 (an abort never looks like success).
Failure abort_failure(const Namespace &ns, const RankRecord &r, int status,
                      const std::string &message);

}  // namespace plexrun
