#include "param_c_view.h"

namespace plexus::mca {

ParamSpec spec_from_desc(const plexus_param_desc_t &desc, const std::string &framework,
                         const std::string &component) {
    ParamSpec spec;
    spec.name = framework + "_" + component + "_" + desc.name;
    spec.type = desc.type;
    spec.default_text = desc.default_value ? desc.default_value : "";
    spec.help = desc.help ? desc.help : "";
    spec.level = desc.level;
    for (auto v = desc.enum_values; v && *v; ++v) spec.enum_values.emplace_back(*v);
    spec.has_range = desc.has_range != 0;
    spec.min = desc.min;
    spec.max = desc.max;
    spec.framework = framework;
    spec.component = component;
    return spec;
}

plexus_param_value_t value_of(const Param &p) {
    plexus_param_value_t out{};
    out.type = p.spec.type;
    out.i = p.value.i;
    out.u = p.value.u;
    out.d = p.value.d;
    out.s = p.value.text.c_str();
    out.list = p.list_cstrs.data();
    out.source = p.origin.c_str();
    return out;
}

}  // namespace plexus::mca
