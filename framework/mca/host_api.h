// The host API table handed to components: the only way a component reaches the core.
#pragma once

#include <plexus/component.h>

namespace plexus::mca {

// The table; its functions act on McaCore::current().
const plexus_host_api_t *host_api_table();

}  // namespace plexus::mca
