// One application of a job: what to run and how many copies (the command line gives one,
// PMIx_Spawn may give several).
#pragma once

#include <string>
#include <vector>

namespace plexrun {

struct AppSpec {
    std::string command;            // as given: a path or a name looked up in PATH
    std::vector<std::string> argv;  // argv[0] included
    std::vector<std::string> env;   // NAME=VALUE entries added to the rank's environment
    std::string cwd;                // empty: plexrun's
    int procs = 1;
};

}  // namespace plexrun
