#include "model.h"

#include <cstddef>

#include <plexus/coll.h>
#include <plexus/osc.h>

#include "mca/framework_table.h"
#include "plexus_config.h"

namespace plexus::info {
namespace {

using nlohmann::json;

const char *state_name(mca::ComponentRecord::State s) {
    switch (s) {
    case mca::ComponentRecord::State::Loaded: return "loaded";
    case mca::ComponentRecord::State::Opened: return "usable";
    case mca::ComponentRecord::State::Unusable: return "unusable";
    case mca::ComponentRecord::State::Closed: return "closed";
    }
    return "?";
}

json component_json(const mca::ComponentRecord &c) {
    const plexus_component_t *d = c.desc;
    return {{"framework", c.framework},
            {"name", c.name},
            {"version", c.version()},
            {"origin", c.origin},
            {"package", d->package ? d->package : ""},
            {"license", d->license ? d->license : ""},
            {"description", d->description ? d->description : ""},
            {"abi", std::to_string(d->abi_major) + "." + std::to_string(d->abi_minor)},
            {"interface", std::to_string(d->framework_major) + "." + std::to_string(d->framework_minor)},
            {"state", state_name(c.state)},
            {"reason", c.unusable_reason}};
}

json param_json(const mca::Param &p) {
    json j = {{"name", p.spec.name},
              {"value", p.value.text},
              {"type", mca::param_type_name(p.spec.type)},
              {"accepted", mca::describe_accepted(p.spec)},
              {"default", p.spec.default_text},
              {"source", mca::source_kind_name(p.source)},
              {"origin", p.origin},
              {"level", p.spec.level},
              {"help", p.spec.help},
              {"framework", p.spec.framework},
              {"component", p.spec.component}};
    if (!p.spec.synonyms.empty()) j["synonyms"] = p.spec.synonyms;
    return j;
}

bool matches(const std::string &filter, const std::string &value) {
    return filter == "all" || filter == value;
}

// Process-wide frameworks have one priority per component; coll and osc have one per
// communicator or window, which --select shows for a given scope.
void add_priorities(mca::McaCore &core, const mca::Framework &fw, json &comps) {
    if (fw.spec->policy == mca::SelectPolicy::PerScope) return;
    mca::Selection s = mca::select_components(fw, core.params(), nullptr);
    for (const auto &d : s.decisions) {
        if (!d.usable) continue;
        for (auto &c : comps)
            if (c["name"] == d.component->name) {
                c["priority"] = d.priority;
                c["selected"] = d.selected;
            }
    }
}

}  // namespace

json describe_core(mca::McaCore &core) {
    json fws = json::array();
    for (const auto &fw : core.frameworks()) {
        json comps = json::array();
        for (const auto *c : fw.members) comps.push_back(component_json(*c));
        add_priorities(core, fw, comps);
        fws.push_back({{"name", fw.name()},
                       {"policy", mca::policy_name(fw.spec->policy)},
                       {"scope", mca::scope_name(fw.spec->scope)},
                       {"description", fw.spec->description},
                       {"interface", mca::version_text(fw.spec->version)},
                       {"list", fw.list_text},
                       {"components", comps}});
    }
    return {{"version", PACKAGE_VERSION},
            {"mca_abi", std::to_string(PLEXUS_MCA_ABI_MAJOR) + "." + std::to_string(PLEXUS_MCA_ABI_MINOR)},
            {"host_api", std::to_string(PLEXUS_HOST_API_MAJOR) + "." + std::to_string(PLEXUS_HOST_API_MINOR)},
            {"loader", core.loader_name()},
            {"folders", core.folders()},
            {"frameworks", fws},
            {"failed", core.repository().failures().size()},
            {"errors", core.errors()}};
}

json describe_failures(const mca::McaCore &core) {
    json out = json::array();
    for (const auto &f : core.repository().failures())
        out.push_back({{"file", f.file}, {"framework", f.framework}, {"name", f.name},
                       {"cause", f.cause}, {"hint", f.hint}});
    return out;
}

json describe_params(mca::McaCore &core, const std::string &framework, const std::string &component,
                     int level) {
    json shown = json::array();
    int hidden = 0;
    for (const mca::Param *p : core.params().all()) {
        if (!matches(framework, p->spec.framework) || !matches(component, p->spec.component)) continue;
        if (p->spec.level > level) {
            ++hidden;
            continue;
        }
        shown.push_back(param_json(*p));
    }
    return {{"framework", framework}, {"component", component}, {"level", level},
            {"params", shown}, {"hidden", hidden}};
}

json describe_component(mca::McaCore &core, const std::string &framework, const std::string &name,
                        int level) {
    const mca::ComponentRecord *c = core.repository().find(framework, name);
    if (!c) return nullptr;
    json j = component_json(*c);
    j["params"] = describe_params(core, framework, name, level);
    return j;
}

namespace {

// Modules made per communicator or window in a dry run serve nothing: coll.h and osc.h say the
// caller destroys them unused. Process-wide modules belong to their component.
template <class Module>
void destroy_unused(mca::Selection &s) {
    for (auto &d : s.decisions) {
        auto *m = static_cast<Module *>(d.module);
        if (m && m->struct_size >= offsetof(Module, destroy) + sizeof m->destroy && m->destroy)
            m->destroy(m);
        d.module = nullptr;
    }
}

void release_dry_run_modules(mca::QueryScope scope, mca::Selection &s) {
    if (scope == mca::QueryScope::Communicator) destroy_unused<plexus_coll_module_t>(s);
    if (scope == mca::QueryScope::Window) destroy_unused<plexus_osc_module_t>(s);
}

}  // namespace

json describe_selection(mca::McaCore &core, const std::string &framework, const Options &o) {
    plexus_coll_scope_t comm{sizeof comm, 0, o.comm_size, 0, o.inter ? 1 : 0,
                             o.inter ? o.comm_size : 0, o.comm_size, "plexus_info", nullptr,
                             nullptr, nullptr};  // a dry run: no communicator, no services
    plexus_osc_scope_t win{sizeof win, 1 << 20, 1, o.comm_size, o.comm_size, PLEXUS_OSC_FLAVOR_CREATE,
                           0, nullptr, nullptr, nullptr, nullptr};  // a dry run: no window, no services
    const mca::FrameworkSpec *spec = mca::find_framework_spec(framework);
    const mca::QueryScope kind = spec ? spec->scope : mca::QueryScope::Process;
    const void *scope = kind == mca::QueryScope::Communicator ? static_cast<const void *>(&comm)
                        : kind == mca::QueryScope::Window     ? static_cast<const void *>(&win)
                                                              : nullptr;
    mca::Selection s = core.select(framework, scope);
    release_dry_run_modules(kind, s);
    json decisions = json::array();
    for (const auto &d : s.decisions)
        decisions.push_back({{"component", d.component->name}, {"usable", d.usable},
                             {"selected", d.selected}, {"priority", d.priority},
                             {"reason", d.reason}});
    json chosen = json::array();
    for (size_t i : s.selected) chosen.push_back(s.at(i).component->name);
    json j = {{"framework", framework}, {"decisions", decisions}, {"selected", chosen},
              {"errors", s.errors}};
    if (scope == &comm) j["scope"] = "a communicator of " + std::to_string(o.comm_size) + " ranks" + (o.inter ? " (inter)" : "");
    if (scope == &win) j["scope"] = "a 1 MiB window over " + std::to_string(o.comm_size) + " ranks";
    if (const auto *fw = core.framework(framework)) {
        j["policy"] = mca::policy_name(fw->spec->policy);
        j["list"] = fw->list_text;
    }
    return j;
}

}  // namespace plexus::info
