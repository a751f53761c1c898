#include "rdma_module.h"

namespace plexus::osc_rdma {

ModuleHandle *create_module(const plexus_osc_scope_t &scope, const Config &config,
                            const plexus_host_api_t *host) {
    return plexus::sdk::make_osc_module<Window>(scope, config, host);
}

}  // namespace plexus::osc_rdma
