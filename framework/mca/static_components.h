// The table of components linked into the core library (configure --enable-mca-static).
#pragma once

#include <plexus/component.h>

namespace plexus::mca {

// NULL-terminated.
extern const plexus_component_t *const kStaticComponents[];

}  // namespace plexus::mca
