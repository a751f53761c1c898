#include "selection.h"

#include <algorithm>
#include <cstring>

#include "base/name_suggest.h"
#include "base/output.h"

namespace plexus::mca {
namespace {

std::string list_param(const Framework &fw) {
    return fw.name() + "=" + fw.list_text;
}

// Applies the list, the open() outcome and query() to one component.
Decision decide(const Framework &fw, ComponentRecord *c, const ParamRegistry &params,
                const void *scope) {
    Decision d;
    d.component = c;
    if (!fw.list.admits(c->name)) {
        d.reason = fw.list.mode == SelectionList::Mode::Exclude ? "excluded by " + list_param(fw)
                                                                : "not in " + list_param(fw);
        return d;
    }
    if (c->state != ComponentRecord::State::Opened) {
        d.reason = "unusable: " + c->unusable_reason;
        return d;
    }
    plexus_query_result_t result{};
    int rc = c->desc->query(scope, &result);
    if (rc != PLEXUS_SUCCESS) {
        std::string why(result.why.text, strnlen(result.why.text, sizeof result.why.text));
        d.reason = "declined: " + (why.empty() ? "query returned " + std::to_string(rc) : why);
        return d;
    }
    d.usable = true;
    d.module = result.module;
    d.query_priority = d.priority = std::clamp(result.priority, 0, PLEXUS_PRIORITY_MAX);
    d.reason = "priority " + std::to_string(d.priority);
    if (const Param *p = params.find(c->full_name() + "_priority"); p && p->value.i >= 0) {
        d.priority = static_cast<int>(p->value.i);
        d.reason = "priority " + std::to_string(d.priority) + " (" + p->spec.name + " from " +
                   p->origin + "; query said " + std::to_string(d.query_priority) + ")";
    }
    return d;
}

void rank(Selection &s) {
    for (size_t i = 0; i < s.decisions.size(); ++i)
        if (s.decisions[i].usable) s.ranked.push_back(i);
    std::stable_sort(s.ranked.begin(), s.ranked.end(), [&](size_t a, size_t b) {
        const Decision &x = s.decisions[a], &y = s.decisions[b];
        if (x.priority != y.priority) return x.priority > y.priority;
        return x.component->name < y.component->name;
    });
}

void apply_policy(Selection &s, SelectPolicy policy) {
    bool take_all = policy == SelectPolicy::MultiSelect || policy == SelectPolicy::PerScope;
    for (size_t n = 0; n < s.ranked.size(); ++n) {
        Decision &d = s.decisions[s.ranked[n]];
        if (take_all || n == 0) {
            d.selected = true;
            s.selected.push_back(s.ranked[n]);
            if (policy == SelectPolicy::PerScope && n > 0) d.reason += ", fallback #" + std::to_string(n);
        } else {
            const Decision &winner = s.decisions[s.ranked[0]];
            d.reason += ", lower than " + winner.component->name + " (" +
                        std::to_string(winner.priority) + ")";
        }
    }
}

// A component the user asked for by name must be usable, or the job stops. In a per-scope
// framework a component that opened may still decline one communicator or window (a group of
// one, no shared node): a list such as coll=shm_inter,basic expects that, so it is a decline.
void require_requested(const Framework &fw, Selection &s) {
    if (fw.list.mode != SelectionList::Mode::Include) return;
    for (const Decision &d : s.decisions) {
        if (d.usable || !fw.list.names_component(d.component->name)) continue;
        if (fw.spec->policy == SelectPolicy::PerScope &&
            d.component->state == ComponentRecord::State::Opened) {
            s.declines.push_back(d.component->full_name() + " (requested by " + list_param(fw) +
                                 ") " + d.reason + "; the next in the list serves this object");
            continue;
        }
        s.errors.push_back(list_param(fw) + " (" + fw.list_origin + ") requests " +
                           d.component->full_name() + ", which cannot be used: " + d.reason +
                           ". Available " + fw.name() + " components: " + describe_available(fw));
    }
}

std::string describe_record(const ComponentRecord *c) {
    if (c->state == ComponentRecord::State::Opened) return c->name + " (usable)";
    if (c->state == ComponentRecord::State::Unusable) return c->name + " (unusable: " + c->unusable_reason + ")";
    return c->name;  // not opened: the list left it out
}

}  // namespace

std::string describe_available(const Framework &fw, const ComponentRepository *repo) {
    std::string out;
    for (const ComponentRecord *c : fw.members) out += (out.empty() ? "" : ", ") + describe_record(c);
    if (repo)
        for (const DeferredFile &d : repo->deferred())
            if (d.framework == fw.name()) out += (out.empty() ? "" : ", ") + d.name + " (not loaded yet)";
    return out.empty() ? "none found" : out;
}

Selection select_components(const Framework &fw, const ParamRegistry &params, const void *scope) {
    Selection s;
    s.framework = fw.name();
    for (ComponentRecord *c : fw.members) s.decisions.push_back(decide(fw, c, params, scope));
    rank(s);
    apply_policy(s, fw.spec->policy);
    require_requested(fw, s);
    for (const Decision &d : s.decisions)
        emit(PLEXUS_LOG_DECISION, fw.name(),
             d.component->name + (d.selected ? ": selected, " : ": not selected, ") + d.reason);
    return s;
}

long first_accepting(const Selection &s, const ModuleAttempt &try_module,
                     std::vector<std::string> *refusals) {
    for (size_t i : s.selected) {
        const Decision &d = s.at(i);
        int rc = try_module(d);
        if (rc == PLEXUS_SUCCESS) return static_cast<long>(i);
        std::string why = d.component->name + " refused (" + std::to_string(rc) + "), trying the next";
        emit(PLEXUS_LOG_DECISION, s.framework, why);
        refusals->push_back(why);
    }
    return -1;
}

ListCheck check_selection_list(const Framework &fw, const ComponentRepository &repo) {
    ListCheck check;
    std::vector<std::string> names;
    for (const ComponentRecord *c : fw.members) names.push_back(c->name);
    for (const DeferredFile &d : repo.deferred())
        if (d.framework == fw.name()) names.push_back(d.name);
    for (const std::string &n : fw.list.names) {
        if (repo.find(fw.name(), n) || repo.deferred_for(fw.name(), n)) continue;
        std::string what = list_param(fw) + " (" + fw.list_origin + "): ";
        if (const LoadFailure *f = repo.failure_for(fw.name(), n)) {
            what += "component " + fw.name() + "_" + n + " failed to load from " + f->file + ": " +
                    f->cause + " (" + f->hint + ")";
        } else {
            what += "there is no " + fw.name() + " component named '" + n + "'";
            if (std::string guess = closest_name(n, names); !guess.empty())
                what += " (did you mean '" + guess + "'?)";
        }
        what += ". Available " + fw.name() + " components: " + describe_available(fw, &repo);
        (fw.list.mode == SelectionList::Mode::Include ? check.errors : check.warnings).push_back(what);
    }
    return check;
}

}  // namespace plexus::mca
