// Typed parameter values: what a parameter accepts, and the parser every source goes through, so
// that a default, a file line, an environment variable and a --mca argument are judged alike.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <plexus/param.h>

namespace plexus::mca {

// Everything the registry knows about one parameter besides its current value.
struct ParamSpec {
    std::string name;  // full name, e.g. "btl_sm_fastbox_max"
    plexus_param_type_t type = PLEXUS_PARAM_STRING;
    std::string default_text;
    std::string help;  // required
    int level = 1;     // 1..9
    std::vector<std::string> enum_values;
    bool has_range = false;  // INT only
    int64_t min = 0;
    int64_t max = 0;
    std::vector<std::string> synonyms;  // other names users may set it by
    std::string framework;  // owner, for plexus_info --param <fw> <comp>
    std::string component;  // "base" for framework-level parameters
};

struct ParamValue {
    plexus_param_type_t type = PLEXUS_PARAM_STRING;
    int64_t i = 0;   // BOOL 0/1, INT, ENUM index
    uint64_t u = 0;  // SIZE in bytes
    double d = 0.0;  // DOUBLE
    std::string text;  // canonical text: "true", "42", "4194304", enum name, list joined by ','
    std::vector<std::string> list;  // LIST elements, trimmed, none empty
};

// Parses text as a value of spec's type. On failure returns nullopt and sets *error to a sentence
// naming the parameter, the value and what is accepted, e.g.
//   btl_sm_fastbox_max: 'lots' is not an integer (accepted: an integer from 0 to 64)
std::optional<ParamValue> parse_param_value(const ParamSpec &spec, std::string_view text,
                                            std::string *error);

// "an integer from 0 to 64", "one of: ltdl, boost", "a size in bytes, with an optional k, m, g or
// t suffix (e.g. 64k)" ... used in errors and by plexus_info.
std::string describe_accepted(const ParamSpec &spec);

const char *param_type_name(plexus_param_type_t type);  // "bool", "int", "size", ...

}  // namespace plexus::mca
