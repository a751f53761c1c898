#include "sm_module.h"

namespace plexus::osc_sm {

Module *create_module(const plexus_osc_scope_t &scope, const plexus_host_api_t *host,
                      const plexus_component_t *self) {
    return plexus::sdk::make_osc_module<Window>(scope, host, self);
}

}  // namespace plexus::osc_sm
