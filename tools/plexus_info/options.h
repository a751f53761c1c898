// plexus_info's command line: what to show, and the --mca settings to show it with.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace plexus::info {

struct Options {
    bool show_components = true;
    bool show_failed = false;
    std::optional<std::pair<std::string, std::string>> param;      // framework|all, component|all
    std::optional<std::pair<std::string, std::string>> component;  // framework, name
    std::optional<std::string> select;                             // framework
    int level = 1;
    int comm_size = 2;      // the scope of a --select coll/osc dry run
    bool inter = false;
    bool json = false;
    std::vector<std::pair<std::string, std::string>> mca;
};

// Returns nullopt and sets *error (or *help_text for --help/--version) when not to run.
std::optional<Options> parse_options(int argc, char **argv, std::string *error, std::string *help_text);

}  // namespace plexus::info
