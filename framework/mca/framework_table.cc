#include "framework_table.h"

#include <plexus/btl.h>
#include <plexus/coll.h>
#include <plexus/dpm.h>
#include <plexus/osc.h>
#include <plexus/reconf.h>

#include "base/name_suggest.h"

namespace plexus::mca {

const std::vector<FrameworkSpec> &framework_table() {
    // osc opens at the first window; dpm cannot wait, MPI_Init meets a spawned job's parents
    // through it; btl, coll and reconf serve MPI_COMM_WORLD from MPI_Init on.
    static const std::vector<FrameworkSpec> table = {
        {"btl", SelectPolicy::MultiSelect, {PLEXUS_BTL_MAJOR, PLEXUS_BTL_MINOR}, QueryScope::Process,
         "byte transfer: moves bytes between two processes", OpenWhen::Init},
        {"coll", SelectPolicy::PerScope, {PLEXUS_COLL_MAJOR, PLEXUS_COLL_MINOR},
         QueryScope::Communicator, "collectives, chosen per communicator and function", OpenWhen::Init},
        {"osc", SelectPolicy::PerScope, {PLEXUS_OSC_MAJOR, PLEXUS_OSC_MINOR}, QueryScope::Window,
         "one-sided communication, chosen per window", OpenWhen::FirstUse},
        {"dpm", SelectPolicy::SingleSelect, {PLEXUS_DPM_MAJOR, PLEXUS_DPM_MINOR},
         QueryScope::Process, "dynamic processes: spawn, connect/accept, join", OpenWhen::Init},
        {"reconf", SelectPolicy::ZeroOrOne, {PLEXUS_RECONF_MAJOR, PLEXUS_RECONF_MINOR},
         QueryScope::Process, "run-time reconfiguration: observes traffic, moves fast channels",
         OpenWhen::Init},
    };
    return table;
}

const FrameworkSpec *find_framework_spec(std::string_view name) {
    for (const auto &spec : framework_table())
        if (name == spec.name) return &spec;
    return nullptr;
}

std::string framework_name_list(std::string_view separator) {
    std::string list;
    for (const auto &spec : framework_table())
        list += (list.empty() ? "" : std::string(separator)) + spec.name;
    return list;
}

std::string unknown_framework_hint(std::string_view name) {
    std::vector<std::string> names;
    for (const auto &spec : framework_table()) names.emplace_back(spec.name);
    const std::string closest = closest_name(name, names);
    std::string hint = closest.empty() ? "" : "did you mean '" + closest + "'? ";
    return hint + "the frameworks are " + framework_name_list();
}

const char *policy_name(SelectPolicy policy) {
    switch (policy) {
    case SelectPolicy::MultiSelect: return "all usable, ranked";
    case SelectPolicy::PerScope: return "ranked per object, with fallback";
    case SelectPolicy::SingleSelect: return "exactly one";
    case SelectPolicy::ZeroOrOne: return "zero or one";
    }
    return "?";
}

const char *scope_name(QueryScope scope) {
    switch (scope) {
    case QueryScope::Process: return "process";
    case QueryScope::Communicator: return "communicator";
    case QueryScope::Window: return "window";
    }
    return "?";
}

std::string version_text(InterfaceVersion version) {
    return std::to_string(version.major) + "." + std::to_string(version.minor);
}

}  // namespace plexus::mca
