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

}  // namespace

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
