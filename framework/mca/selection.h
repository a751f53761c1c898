// Choosing components for a scope: each admitted, opened component is queried, the priority
// override applied, the usable ones ranked (priority, then name) and the framework's policy
// applied. Every decision keeps its reason, for verbose tracing and plexus_info --select.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "component_repository.h"
#include "framework.h"
#include "base/param_registry.h"

namespace plexus::mca {

struct Decision {
    ComponentRecord *component = nullptr;
    bool usable = false;
    bool selected = false;
    int query_priority = -1;  // what query() answered
    int priority = -1;        // after <fw>_<comp>_priority
    void *module = nullptr;
    std::string reason;
};

struct Selection {
    std::string framework;
    std::vector<Decision> decisions;  // every member of the framework, by name
    std::vector<size_t> ranked;       // indices of usable decisions: priority desc, name asc
    std::vector<size_t> selected;     // indices the policy chose, in rank order
    std::vector<std::string> errors;  // a requested component that is not usable
    // Per-scope frameworks (coll, osc): a requested component that is usable but declined this
    // communicator or window (its query's reason). Not an error: the next in the list serves it.
    std::vector<std::string> declines;

    const Decision &at(size_t i) const { return decisions[i]; }
};

Selection select_components(const Framework &fw, const ParamRegistry &params, const void *scope);

// The fallback of per-object frameworks (osc): offers the object to the selected modules in rank
// order until one accepts it (try_module returns PLEXUS_SUCCESS). Returns the index of the
// decision that accepted it, or -1; every refusal is traced and appended to *refusals.
using ModuleAttempt = std::function<int(const Decision &)>;
long first_accepting(const Selection &s, const ModuleAttempt &try_module,
                     std::vector<std::string> *refusals);

// Errors (requested components that do not exist) and warnings (excluded ones that do not exist)
// about the framework's list, checked once at init against what was found.
struct ListCheck {
    std::vector<std::string> errors;
    std::vector<std::string> warnings;
};
ListCheck check_selection_list(const Framework &fw, const ComponentRepository &repo);

// "good (usable), nodev (unusable: no device)": what a user can pick from, for error messages;
// with repo, also the files found but not loaded ("rdma (not loaded yet)").
std::string describe_available(const Framework &fw, const ComponentRepository *repo = nullptr);

}  // namespace plexus::mca
