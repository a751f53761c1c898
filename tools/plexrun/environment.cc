// Building the ranks' environment.
#include "environment.h"

#include <unistd.h>

#include <algorithm>

extern char **environ;

namespace plexrun {
namespace {

std::string name_of(const std::string &entry) {
    return entry.substr(0, entry.find('='));
}

bool starts_with(const std::string &s, const char *prefix) {
    return s.rfind(prefix, 0) == 0;
}

}  // namespace

Environment Environment::inherited() {
    Environment env;
    for (char **e = environ; e && *e; ++e) {
        std::string entry = *e;
        std::string name = name_of(entry);
        if (starts_with(name, "PMIX_") && !starts_with(name, "PMIX_MCA_")) continue;
        if (name == "PLEXUS_MCA_FROM_CLI") continue;
        env.entries_.push_back(std::move(entry));
    }
    return env;
}

void Environment::set(const std::string &entry) {
    unset(name_of(entry));
    entries_.push_back(entry);
}

void Environment::unset(const std::string &name) {
    std::erase_if(entries_, [&](const std::string &e) { return name_of(e) == name; });
}

std::string Environment::get(const std::string &name) const {
    for (const std::string &e : entries_)
        if (name_of(e) == name) return e.substr(name.size() + 1);
    return "";
}

Environment rank_environment(const std::vector<std::pair<std::string, std::string>> &mca) {
    Environment env = Environment::inherited();
    std::string names;
    for (const auto &[name, value] : mca) {
        env.set("PLEXUS_MCA_" + name, value);
        names += (names.empty() ? "" : ",") + name;
    }
    if (!names.empty()) env.set("PLEXUS_MCA_FROM_CLI", names);
    return env;
}

}  // namespace plexrun
