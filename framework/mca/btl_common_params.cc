#include "btl_common_params.h"

#include <cstdint>

namespace plexus::mca {
namespace {

ParamSpec btl_spec(const std::string &component, const char *what, plexus_param_type_t type,
                   const char *def, std::string help) {
    ParamSpec s;
    s.name = "btl_" + component + "_" + what;
    s.type = type;
    s.default_text = def;
    s.help = std::move(help);
    s.level = 4;
    s.framework = "btl";
    s.component = component;
    return s;
}

// The warning when btl_<component>_<what>, set by the user to `set`, is not what the module reports.
void check_applied(const ParamRegistry &params, const std::string &component, const char *what, uint64_t set_sentinel,
                   uint64_t reported, std::vector<std::string> *out) {
    const Param *p = params.find("btl_" + component + "_" + what);
    if (!p || p->source == SourceKind::Default) return;
    const uint64_t set = p->spec.type == PLEXUS_PARAM_SIZE ? p->value.u : static_cast<uint64_t>(p->value.i);
    if (set == set_sentinel || set == reported) return;
    out->push_back(p->spec.name + " is " + std::to_string(set) + " (" + p->origin + ") but btl " + component +
                   " reports " + std::to_string(reported) +
                   ": it does not read the BTL parameters the core registers (plexus::sdk::btl_limits)");
}

}  // namespace

std::vector<std::string> btl_limits_not_applied(const ParamRegistry &params, const plexus_btl_module_t &m) {
    std::vector<std::string> out;
    if (!m.name) return out;
    check_applied(params, m.name, "eager_limit", 0, m.eager_limit, &out);
    check_applied(params, m.name, "max_send_size", 0, m.max_send_size, &out);
    check_applied(params, m.name, "exclusivity", static_cast<uint64_t>(int64_t{-1}), m.exclusivity, &out);
    return out;
}

bool register_btl_common_params(ParamRegistry &params, const std::string &component, std::string *error) {
    const std::string own = " (0: btl " + component + "'s own, see its README)";
    ParamSpec eager = btl_spec(component, "eager_limit", PLEXUS_PARAM_SIZE, "0",
                               "Largest message (header + payload) btl " + component +
                                   " sends without asking the receiver first; larger ones go by "
                                   "rendezvous. At most btl_" + component + "_max_send_size" + own + ".");
    ParamSpec max_send = btl_spec(component, "max_send_size", PLEXUS_PARAM_SIZE, "0",
                                  "Largest message (header + payload) of any one send of btl " + component +
                                      ", the fragment size of pipelined rendezvous" + own + ".");
    ParamSpec exclusivity =
        btl_spec(component, "exclusivity", PLEXUS_PARAM_INT, "-1",
                 "Rank of btl " + component + " among the BTLs that reach the same peer: the highest is "
                 "used first (self 65535, same node 32768, RDMA fabrics 16384, anything 256; -1: the "
                 "component's own).");
    exclusivity.has_range = true;
    exclusivity.min = -1;
    exclusivity.max = UINT16_MAX;
    for (ParamSpec *s : {&eager, &max_send, &exclusivity})
        if (!params.register_param(*s, nullptr, error)) return false;
    return true;
}

}  // namespace plexus::mca
