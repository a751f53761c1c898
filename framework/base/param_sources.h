// Where parameter values come from, and in which order they win: default < system file <
// system drop-in files < user file < environment < command line.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace plexus::mca {

// Declared in precedence order: a later kind overrides an earlier one.
enum class SourceKind { Default = 0, SystemFile, SystemDropIn, UserFile, Env, Cli };

const char *source_kind_name(SourceKind kind);  // "default", "system file", ...

// One name = value pair as some source stated it.
struct Setting {
    std::string name;
    std::string value;
    SourceKind kind = SourceKind::Default;
    std::string origin;  // "/etc/plexus/mca-params.conf:12", "env PLEXUS_MCA_btl", "cli"
};

// What to read. from_process() fills it from the real machine; tests build their own.
struct SourceConfig {
    std::string system_file;        // $sysconfdir/plexus/mca-params.conf
    std::string system_dropin_dir;  // $sysconfdir/plexus/mca-params.d (files *.conf, by name)
    std::string user_file;          // ~/.plexus/mca-params.conf
    std::vector<std::pair<std::string, std::string>> environment;  // every NAME=VALUE
    std::vector<std::pair<std::string, std::string>> cli;          // --mca name value, in order

    static SourceConfig from_process(const std::string &sysconfdir);
};

constexpr const char *kEnvPrefix = "PLEXUS_MCA_";
// Set by plexrun: the comma-separated names of the PLEXUS_MCA_<name> variables that came from its
// --mca options, so they are recorded as command-line settings. Reserved: never a setting itself.
constexpr const char *kEnvFromCli = "PLEXUS_MCA_FROM_CLI";
constexpr const char *kFromCliOrigin = "cli (plexrun --mca)";

// Reads every source. Files that do not exist are skipped silently; lines that do not parse
// ("name = value", '#' comments, blank lines) are reported in *errors as "file:line: ...".
// Within one kind a later setting overrides an earlier one.
std::vector<Setting> collect_settings(const SourceConfig &config, std::vector<std::string> *errors);

}  // namespace plexus::mca
