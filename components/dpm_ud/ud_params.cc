// Registration of dpm_ud's parameters.
#include "ud_params.h"

#include <plexus/sdk/param.hpp>

namespace plexus::dpm_ud {

const char *const kModes[] = {"ud", "rc", "auto", nullptr};

int register_ud_params(const plexus_host_api_t *host, const plexus_component_t *self, UdParams *p) {
    using namespace plexus::sdk;
    return register_params(host, self, {
        enum_param("mode", &p->mode, kModes, "ud",
                   "How the two roots of a spawn or connect/accept exchange their groups: ud (datagrams "
                   "only, the paper's UD design), rc (a hello datagram sets up a TCP connection between "
                   "the roots, which carries the rest: the paper's RC design), auto (rc from "
                   "dpm_ud_auto_threshold processes in both groups on, else ud). The spawning or "
                   "accepting side's setting decides. Default ud.",
                   2),
        int_param("auto_threshold", &p->auto_threshold, "256",
                  "With dpm_ud_mode auto: the number of processes in both groups together from which "
                  "the roots use a TCP connection instead of datagrams. Default 256: where bench/dpm's "
                  "scale model, fed with this machine's per-message costs and calibrated on quiet 1 + 1 "
                  "connects, puts the crossover (datagrams cost more per byte, the connection more once).",
                  4).range(1, 1 << 30),
        string_param("if", &p->interface, "",
                     "The interface of dpm_ud's datagram endpoints: a name or IPv4 address (UDP) or "
                     "hca:port (InfiniBand UD). Empty: runtime_dgram_if. Across nodes it must be one "
                     "that every node reaches (not lo).",
                     3),
    });
}

}  // namespace plexus::dpm_ud
