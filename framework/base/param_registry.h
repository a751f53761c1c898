// The registry of every parameter of the core and of every loaded component: registration,
// resolution of each value from the sources by precedence, lookup, and the check that every
// setting a user made names a parameter that exists.
#pragma once

#include <deque>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "param_sources.h"
#include "param_value.h"

namespace plexus::mca {

struct Param {
    ParamSpec spec;
    ParamValue value;
    SourceKind source = SourceKind::Default;
    std::string origin;  // "default", or the Setting's origin
    void *storage = nullptr;
    // Stable C views for storage and the host API (strings and lists handed to components).
    std::vector<const char *> list_cstrs;  // NULL-terminated
};

struct UnknownSetting {
    std::string name;
    std::string origin;
    std::string suggestion;  // closest registered name, empty when nothing is close
};

class ParamRegistry {
public:
    explicit ParamRegistry(std::vector<Setting> settings = {});

    // Registers a parameter and resolves its value: the highest-precedence setting naming it (or a
    // synonym) whose value parses; a setting that does not parse is recorded in errors() and the
    // next one down is used. Fails (nullptr, *error set) on a duplicate name, empty help, a level
    // outside 1..9 or a default that does not parse: those are bugs in the registering code.
    // When storage is not null the effective value is written there (see plexus/param.h).
    Param *register_param(ParamSpec spec, void *storage, std::string *error);

    // Adds a setting after registration (plexus_info --mca, tests); re-resolves the parameter if
    // it exists. Returns false and records an error when the value does not parse.
    bool add_setting(Setting setting);

    const Param *find(std::string_view name_or_synonym) const;
    std::vector<const Param *> all() const;  // sorted by name

    // Settings that name no registered parameter, each with the closest registered name.
    std::vector<UnknownSetting> unknown_settings() const;

    // Bad values met so far, each naming the parameter, the value, its origin and what is accepted.
    const std::vector<std::string> &errors() const { return errors_; }

private:
    void resolve(Param &param);
    void store(Param &param);

    std::vector<Setting> settings_;
    std::deque<Param> params_;  // deque: Param addresses stay valid as more are registered
    std::map<std::string, Param *, std::less<>> by_name_;  // names and synonyms
    std::vector<std::string> errors_;
};

}  // namespace plexus::mca
