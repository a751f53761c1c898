// What a spawn starts: one application of maxprocs copies, in a new namespace.
#pragma once

#include <string>
#include <vector>

namespace plexus::runtime {

struct SpawnRequest {
    std::string command;
    std::vector<std::string> argv;  // argv[0] included
    std::vector<std::string> env;   // NAME=VALUE added to the children's environment
    std::string cwd;                // empty: the server's choice
    int maxprocs = 1;
};

}  // namespace plexus::runtime
