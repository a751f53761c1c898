// A host API whose parameters live in a ParamRegistry of the test's own, through the core's own
// translation (param_c_view.h): what a component registers and reads there is what the core
// would do with it, without a running core.
#pragma once

#include <string>

#include <plexus/component.h>

#include "mca/param_c_view.h"
#include "base/param_registry.h"

namespace plexus::test {

inline mca::ParamRegistry *&registry_of_host() {
    static mca::ParamRegistry *registry = nullptr;
    return registry;
}

inline int registry_param_register(const plexus_component_t *self, const plexus_param_desc_t *d) {
    if (!self || !d || d->struct_size != sizeof *d || !d->name) return PLEXUS_ERR_BAD_PARAM;
    std::string err;
    return registry_of_host()->register_param(mca::spec_from_desc(*d, self->framework, self->name), d->storage,
                                              &err)
               ? PLEXUS_SUCCESS
               : PLEXUS_ERR_BAD_PARAM;
}

inline int registry_param_lookup(const char *name, plexus_param_value_t *out) {
    const mca::Param *p = registry_of_host()->find(name);
    if (!p) return PLEXUS_ERR_NOT_FOUND;
    *out = mca::value_of(*p);
    return PLEXUS_SUCCESS;
}

// Parameters of host go to and come from registry (one such host at a time).
inline void use_registry(plexus_host_api_t *host, mca::ParamRegistry *registry) {
    registry_of_host() = registry;
    host->param_register = registry_param_register;
    host->param_lookup = registry_param_lookup;
}

// A descriptor with the names the core prefixes parameters with.
inline plexus_component_t named_component(const char *framework, const char *name) {
    plexus_component_t c{};
    c.framework = framework;
    c.name = name;
    return c;
}

}  // namespace plexus::test
