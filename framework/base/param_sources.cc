#include "param_sources.h"

#include <dirent.h>
#include <pwd.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <set>
#include <string_view>

extern char **environ;

namespace plexus::mca {
namespace {

std::string_view trim(std::string_view s) {
    constexpr std::string_view kBlank = " \t\n\r\f\v";
    const size_t first = s.find_first_not_of(kBlank);
    if (first == std::string_view::npos) return {};
    return s.substr(first, s.find_last_not_of(kBlank) - first + 1);
}

bool valid_name(std::string_view name) {
    if (name.empty()) return false;
    return std::all_of(name.begin(), name.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
               c == '_';
    });
}

// A missing file or directory just means nobody configured that source.
bool is_missing(int err) { return err == ENOENT || err == ENOTDIR; }

std::string home_directory() {
    if (const char *home = std::getenv("HOME"); home && *home) return home;
    // Daemons and batch systems sometimes start jobs without HOME.
    if (const passwd *pw = getpwuid(getuid()); pw && pw->pw_dir && *pw->pw_dir) return pw->pw_dir;
    return {};
}

struct FileCloser {
    void operator()(std::FILE *f) const { std::fclose(f); }
};

// The whole file, or false (with *error set unless the file is simply absent).
bool read_file(const std::string &path, std::string *contents, std::string *error) {
    std::unique_ptr<std::FILE, FileCloser> f(std::fopen(path.c_str(), "r"));
    if (!f) {
        if (!is_missing(errno)) *error = path + ": cannot read: " + std::strerror(errno);
        return false;
    }
    char buf[4096];
    size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, f.get())) > 0) contents->append(buf, n);
    if (std::ferror(f.get())) {  // e.g. EISDIR: fopen accepts a directory, reading it fails
        *error = path + ": cannot read: " + std::strerror(errno);
        return false;
    }
    return true;
}

std::string_view unquote(std::string_view value) {
    if (value.size() >= 2 && value.front() == '"' && value.back() == '"')
        return value.substr(1, value.size() - 2);
    return value;
}

// One line of a mca-params file; false when it is neither blank, a comment nor "name = value".
bool parse_line(std::string_view line, std::string *name, std::string *value) {
    const std::string_view t = trim(line);
    if (t.empty() || t.front() == '#') {
        name->clear();
        return true;
    }
    const size_t eq = t.find('=');
    if (eq == std::string_view::npos) return false;
    const std::string_view n = trim(t.substr(0, eq));
    if (!valid_name(n)) return false;
    *name = std::string(n);
    *value = std::string(unquote(trim(t.substr(eq + 1))));
    return true;
}

void parse_file(const std::string &path, std::string_view contents, SourceKind kind,
                std::vector<Setting> *out, std::vector<std::string> *errors) {
    if (contents.substr(0, 3) == "\xEF\xBB\xBF") contents.remove_prefix(3);  // editors' UTF-8 BOM
    size_t number = 0;
    while (!contents.empty()) {
        ++number;
        const size_t nl = contents.find('\n');
        std::string_view line = contents.substr(0, nl);
        contents.remove_prefix(nl == std::string_view::npos ? contents.size() : nl + 1);
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);  // written on Windows
        std::string name, value;
        const std::string where = path + ":" + std::to_string(number);
        if (!parse_line(line, &name, &value)) {
            errors->push_back(where + ": expected 'name = value', got '" + std::string(line) + "'");
        } else if (!name.empty()) {
            out->push_back(Setting{std::move(name), std::move(value), kind, where});
        }
    }
}

void read_settings_file(const std::string &path, SourceKind kind, std::vector<Setting> *out,
                        std::vector<std::string> *errors) {
    if (path.empty()) return;
    std::string contents, error;
    if (read_file(path, &contents, &error)) {
        parse_file(path, contents, kind, out, errors);
    } else if (!error.empty()) {
        errors->push_back(error);
    }
}

// Names of the *.conf files of dir, sorted bytewise so the order does not depend on the locale.
std::vector<std::string> dropin_files(const std::string &dir, std::vector<std::string> *errors) {
    std::vector<std::string> names;
    if (dir.empty()) return names;
    std::unique_ptr<DIR, int (*)(DIR *)> d(opendir(dir.c_str()), closedir);
    if (!d) {
        if (!is_missing(errno)) errors->push_back(dir + ": cannot read: " + std::strerror(errno));
        return names;
    }
    constexpr std::string_view kSuffix = ".conf";
    while (const dirent *entry = readdir(d.get())) {
        const std::string_view name = entry->d_name;
        // Hidden files are editor and package-manager leftovers, not configuration.
        if (name.front() == '.' || name.size() <= kSuffix.size() || !name.ends_with(kSuffix))
            continue;
        struct stat st;
        const std::string path = dir + "/" + std::string(name);
        if (stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) continue;
        names.emplace_back(name);
    }
    std::sort(names.begin(), names.end());
    return names;
}

// The names PLEXUS_MCA_FROM_CLI lists (blanks around commas ignored).
std::set<std::string, std::less<>> names_from_cli(const SourceConfig &config) {
    std::set<std::string, std::less<>> names;
    for (const auto &[name, value] : config.environment) {
        if (name != kEnvFromCli) continue;
        std::string_view rest = value;
        while (!rest.empty()) {
            const size_t comma = rest.find(',');
            const std::string_view item = trim(rest.substr(0, comma));
            if (!item.empty()) names.emplace(item);
            rest = comma == std::string_view::npos ? std::string_view{} : rest.substr(comma + 1);
        }
    }
    return names;
}

// The environment's PLEXUS_MCA_<name> settings; those plexrun took from its command line count
// as command-line settings.
void read_environment(const SourceConfig &config, std::vector<Setting> *out) {
    const std::string_view prefix = kEnvPrefix;
    const auto from_cli = names_from_cli(config);
    for (const auto &[name, value] : config.environment) {
        if (name.size() <= prefix.size() || !name.starts_with(prefix) || name == kEnvFromCli) continue;
        std::string short_name = name.substr(prefix.size());
        if (from_cli.contains(short_name)) {
            out->push_back(Setting{std::move(short_name), value, SourceKind::Cli, kFromCliOrigin});
        } else {
            out->push_back(Setting{std::move(short_name), value, SourceKind::Env, "env " + name});
        }
    }
}

}  // namespace

const char *source_kind_name(SourceKind kind) {
    switch (kind) {
    case SourceKind::Default: return "default";
    case SourceKind::SystemFile: return "system file";
    case SourceKind::SystemDropIn: return "system drop-in file";
    case SourceKind::UserFile: return "user file";
    case SourceKind::Env: return "environment";
    case SourceKind::Cli: return "command line";
    }
    return "unknown";
}

SourceConfig SourceConfig::from_process(const std::string &sysconfdir) {
    SourceConfig config;
    config.system_file = sysconfdir + "/plexus/mca-params.conf";
    config.system_dropin_dir = sysconfdir + "/plexus/mca-params.d";
    if (const std::string home = home_directory(); !home.empty())
        config.user_file = home + "/.plexus/mca-params.conf";
    for (char **e = environ; e && *e; ++e) {
        const std::string_view entry = *e;
        const size_t eq = entry.find('=');
        if (eq == std::string_view::npos) continue;
        config.environment.emplace_back(std::string(entry.substr(0, eq)),
                                        std::string(entry.substr(eq + 1)));
    }
    return config;
}

std::vector<Setting> collect_settings(const SourceConfig &config,
                                      std::vector<std::string> *errors) {
    std::vector<std::string> scratch;
    if (!errors) errors = &scratch;
    std::vector<Setting> settings;
    read_settings_file(config.system_file, SourceKind::SystemFile, &settings, errors);
    for (const std::string &name : dropin_files(config.system_dropin_dir, errors))
        read_settings_file(config.system_dropin_dir + "/" + name, SourceKind::SystemDropIn,
                           &settings, errors);
    read_settings_file(config.user_file, SourceKind::UserFile, &settings, errors);
    read_environment(config, &settings);
    for (const auto &[name, value] : config.cli)
        settings.push_back(Setting{name, value, SourceKind::Cli, "cli"});
    return settings;
}

}  // namespace plexus::mca
