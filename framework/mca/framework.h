// A framework as this process configured it: its row of the framework table, the selection list
// the user gave it and the components found for it.
#pragma once

#include <string>
#include <vector>

#include "component_repository.h"
#include "framework_table.h"
#include "selection_list.h"

namespace plexus::mca {

struct Framework {
    const FrameworkSpec *spec = nullptr;
    SelectionList list;             // from the parameter named like the framework
    std::string list_text;          // as the user wrote it
    std::string list_origin;        // where it was set
    std::vector<ComponentRecord *> members;  // loaded components, by name
    // Its admitted components were loaded and opened (at init, or at its first selection for an
    // OpenWhen::FirstUse framework).
    bool opened = false;

    std::string name() const { return spec->name; }
};

}  // namespace plexus::mca
