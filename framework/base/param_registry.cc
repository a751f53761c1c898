#include "param_registry.h"

#include <algorithm>
#include <cstring>
#include <set>

#include "name_suggest.h"

namespace plexus::mca {
namespace {

bool valid_type(plexus_param_type_t type) {
    return type >= PLEXUS_PARAM_BOOL && type <= PLEXUS_PARAM_LIST;
}

bool names_param(const Setting &setting, const ParamSpec &spec) {
    return setting.name == spec.name || std::find(spec.synonyms.begin(), spec.synonyms.end(),
                                                  setting.name) != spec.synonyms.end();
}

// Indices of the settings naming spec, best first: higher kind, then later in the vector.
std::vector<size_t> candidates(const std::vector<Setting> &settings, const ParamSpec &spec) {
    std::vector<size_t> found;
    for (size_t i = 0; i < settings.size(); ++i)
        if (names_param(settings[i], spec)) found.push_back(i);
    std::stable_sort(found.begin(), found.end(), [&](size_t a, size_t b) {
        if (settings[a].kind != settings[b].kind) return settings[a].kind > settings[b].kind;
        return a > b;
    });
    return found;
}

// The problem with spec that makes it unregistrable, or "" when it is fine.
std::string spec_problem(const ParamSpec &spec) {
    if (spec.name.empty()) return "a parameter needs a name";
    if (!valid_type(spec.type))
        return spec.name + ": unknown parameter type " +
               std::to_string(static_cast<int>(spec.type));
    if (spec.help.empty()) return spec.name + ": a parameter needs help text";
    if (spec.level < 1 || spec.level > 9)
        return spec.name + ": level " + std::to_string(spec.level) + " is outside 1..9";
    if (spec.type == PLEXUS_PARAM_ENUM && spec.enum_values.empty())
        return spec.name + ": an enum parameter needs at least one value";
    std::string error;
    if (!parse_param_value(spec, spec.default_text, &error))
        return error + " (the registered default)";
    return {};
}

// The problem with spec's names and synonyms (empty, given twice, already registered), or "".
std::string names_problem(const ParamSpec &spec,
                          const std::map<std::string, Param *, std::less<>> &registered) {
    std::set<std::string_view> names{spec.name};
    for (const std::string &synonym : spec.synonyms)
        if (synonym.empty() || !names.insert(synonym).second)
            return spec.name + ": synonym '" + synonym + "' is empty or repeated";
    for (std::string_view name : names)
        if (registered.count(name))
            return spec.name + ": '" + std::string(name) + "' is already registered";
    return {};
}

// Keeps the old strings when the value did not change: components may hold on to the pointers
// they were given, and re-resolution happens on every add_setting naming the parameter.
void set_value(Param &param, ParamValue value) {
    const ParamValue &old = param.value;
    if (old.type == value.type && old.text == value.text && old.list == value.list) return;
    param.value = std::move(value);
}

// Resolution runs again on every add_setting: report a bad setting once. The message names
// parameter, value and origin, so equal messages mean the same mistake.
void record_error(std::vector<std::string> *errors, std::string error) {
    if (std::find(errors->begin(), errors->end(), error) == errors->end())
        errors->push_back(std::move(error));
}

template <typename T>
void write(void *storage, T value) {
    // memcpy: storage comes from C and its alignment is the component's business.
    std::memcpy(storage, &value, sizeof value);
}

}  // namespace

ParamRegistry::ParamRegistry(std::vector<Setting> settings) : settings_(std::move(settings)) {}

Param *ParamRegistry::register_param(ParamSpec spec, void *storage, std::string *error) {
    std::string problem = spec_problem(spec);
    if (problem.empty()) problem = names_problem(spec, by_name_);
    if (!problem.empty()) {
        if (error) *error = std::move(problem);
        return nullptr;
    }
    Param &param = params_.emplace_back();
    param.spec = std::move(spec);
    param.storage = storage;
    by_name_.emplace(param.spec.name, &param);
    for (const std::string &synonym : param.spec.synonyms) by_name_.emplace(synonym, &param);
    resolve(param);
    return &param;
}

bool ParamRegistry::add_setting(Setting setting) {
    settings_.push_back(std::move(setting));
    const Setting &added = settings_.back();
    const auto it = by_name_.find(added.name);
    if (it == by_name_.end()) return true;  // judged when (if) the parameter registers
    Param &param = *it->second;
    resolve(param);
    // A value that loses to a higher source is still a user mistake worth reporting.
    std::string error;
    if (parse_param_value(param.spec, added.value, &error)) return true;
    record_error(&errors_, error + " (set in " + added.origin + ")");
    return false;
}

// Settings of kind Default (a platform's or a test's defaults) take part like any other kind:
// they beat the registered default and lose to every real source.
void ParamRegistry::resolve(Param &param) {
    for (size_t i : candidates(settings_, param.spec)) {
        const Setting &setting = settings_[i];
        std::string error;
        std::optional<ParamValue> value = parse_param_value(param.spec, setting.value, &error);
        if (!value) {
            record_error(&errors_, error + " (set in " + setting.origin + ")");
            continue;
        }
        set_value(param, std::move(*value));
        param.source = setting.kind;
        param.origin = setting.origin;
        store(param);
        return;
    }
    // Checked at registration, so it parses.
    set_value(
        param,
        parse_param_value(param.spec, param.spec.default_text, nullptr).value_or(ParamValue{}));
    param.source = SourceKind::Default;
    param.origin = "default";
    store(param);
}

void ParamRegistry::store(Param &param) {
    param.list_cstrs.clear();
    for (const std::string &element : param.value.list) param.list_cstrs.push_back(element.c_str());
    param.list_cstrs.push_back(nullptr);
    if (!param.storage) return;
    const ParamValue &v = param.value;
    switch (param.spec.type) {
    case PLEXUS_PARAM_BOOL:
    case PLEXUS_PARAM_ENUM: write<int>(param.storage, static_cast<int>(v.i)); break;
    case PLEXUS_PARAM_INT: write<int64_t>(param.storage, v.i); break;
    case PLEXUS_PARAM_SIZE: write<uint64_t>(param.storage, v.u); break;
    case PLEXUS_PARAM_DOUBLE: write<double>(param.storage, v.d); break;
    case PLEXUS_PARAM_STRING: write<const char *>(param.storage, v.text.c_str()); break;
    case PLEXUS_PARAM_LIST:
        write<const char *const *>(param.storage, param.list_cstrs.data());
        break;
    }
}

const Param *ParamRegistry::find(std::string_view name_or_synonym) const {
    const auto it = by_name_.find(name_or_synonym);
    return it == by_name_.end() ? nullptr : it->second;
}

std::vector<const Param *> ParamRegistry::all() const {
    std::vector<const Param *> out;
    for (const Param &param : params_) out.push_back(&param);
    std::sort(out.begin(), out.end(),
              [](const Param *a, const Param *b) { return a->spec.name < b->spec.name; });
    return out;
}

std::vector<UnknownSetting> ParamRegistry::unknown_settings() const {
    // Per unknown name, the index of its highest-precedence setting (later wins within a kind).
    std::map<std::string_view, size_t> winner;
    for (size_t i = 0; i < settings_.size(); ++i) {
        const Setting &s = settings_[i];
        if (s.kind == SourceKind::Default || by_name_.count(s.name)) continue;
        const auto [it, inserted] = winner.emplace(s.name, i);
        if (!inserted && s.kind >= settings_[it->second].kind) it->second = i;
    }
    std::vector<std::string> known;
    for (const auto &entry : by_name_) known.push_back(entry.first);
    std::vector<UnknownSetting> out;
    for (const auto &[name, index] : winner)
        out.push_back(
            UnknownSetting{std::string(name), settings_[index].origin, closest_name(name, known)});
    return out;
}

}  // namespace plexus::mca
