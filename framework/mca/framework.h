// The five frameworks and how each selects: btl keeps every usable component, coll and osc rank
// them per communicator or window, dpm takes exactly one, reconf at most one.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "component_repository.h"
#include "selection_list.h"

namespace plexus::mca {

enum class SelectPolicy {
    All,        // btl: every usable component, ranked
    PerObject,  // coll, osc: ranked per communicator / window; later entries are fallbacks
    Single,     // dpm: the highest-priority usable one, required when used
    ZeroOrOne,  // reconf: the highest-priority usable one, or none
};

struct FrameworkSpec {
    const char *name;
    SelectPolicy policy;
    const char *description;
};

const std::vector<FrameworkSpec> &framework_specs();
const FrameworkSpec *find_framework_spec(std::string_view name);
const char *policy_name(SelectPolicy policy);

// A framework as configured in this process.
struct Framework {
    const FrameworkSpec *spec = nullptr;
    SelectionList list;             // from the parameter named like the framework
    std::string list_text;          // as the user wrote it
    std::string list_origin;        // where it was set
    std::vector<ComponentRecord *> members;  // loaded components, by name

    std::string name() const { return spec->name; }
};

}  // namespace plexus::mca
