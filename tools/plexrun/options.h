// plexrun's command line: what it accepts, the help text, and the errors for what it does not.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace plexrun {

enum class BindPolicy {
    Automatic,  // like Open MPI: bind to cores unless that would oversubscribe them
    Core,
    None,
};

struct Options {
    int ranks = 1;
    // --mca name value, in command-line order; a repeated name keeps its last value.
    std::vector<std::pair<std::string, std::string>> mca;
    bool tag_output = false;
    // --verbose: also explain a rank's plain non-zero exit on stderr.
    bool verbose = false;
    std::optional<double> timeout_seconds;
    // Where the timeout came from, for the message: "--timeout" or "MPIEXEC_TIMEOUT".
    std::string timeout_source = "--timeout";
    BindPolicy bind = BindPolicy::Automatic;
    // --universe-size N: PMIX_UNIV_SIZE, and a limit on the ranks running at once (spawns that
    // would pass it are refused). Unset: the node's CPUs (or the ranks running, if more), and no
    // limit.
    std::optional<int> universe_size;
    std::vector<std::string> command;  // program and its arguments
};

struct ParsedCommandLine {
    enum class Action { Run, Help, Version, Error } action = Action::Run;
    Options options;
    std::string error;  // for Action::Error: one line naming the option and what it accepts
};

ParsedCommandLine parse_command_line(int argc, char **argv);
std::string help_text();
std::string version_text();

// Bad usage exits with 2, like most command-line tools.
constexpr int kUsageExitStatus = 2;

}  // namespace plexrun
