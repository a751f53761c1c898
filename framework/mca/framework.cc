#include "framework.h"

namespace plexus::mca {

const std::vector<FrameworkSpec> &framework_specs() {
    static const std::vector<FrameworkSpec> specs = {
        {"btl", SelectPolicy::All, "byte transfer: moves bytes between two processes"},
        {"coll", SelectPolicy::PerObject, "collectives, chosen per communicator and function"},
        {"osc", SelectPolicy::PerObject, "one-sided communication, chosen per window"},
        {"dpm", SelectPolicy::Single, "dynamic processes: spawn, connect/accept, join"},
        {"reconf", SelectPolicy::ZeroOrOne, "run-time reconfiguration of fast channels"},
    };
    return specs;
}

const FrameworkSpec *find_framework_spec(std::string_view name) {
    for (const auto &spec : framework_specs())
        if (name == spec.name) return &spec;
    return nullptr;
}

const char *policy_name(SelectPolicy policy) {
    switch (policy) {
    case SelectPolicy::All: return "all usable, ranked";
    case SelectPolicy::PerObject: return "ranked per object, with fallback";
    case SelectPolicy::Single: return "exactly one";
    case SelectPolicy::ZeroOrOne: return "zero or one";
    }
    return "?";
}

}  // namespace plexus::mca
