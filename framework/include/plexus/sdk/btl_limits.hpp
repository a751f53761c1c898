// The parameters every BTL has: btl_<name>_eager_limit, btl_<name>_max_send_size and
// btl_<name>_exclusivity. The core registers them for each btl component (as it registers
// <fw>_<name>_priority), left at "the component's own" (0, or -1 for exclusivity) unless the user
// sets them; a BTL reads them here, with its own defaults, before it sizes anything by them.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>

#include <plexus/btl.h>
#include <plexus/sdk/host.hpp>

namespace plexus::sdk {

// Room for the upper layer's headers in the smallest message it may be limited to.
inline constexpr uint64_t kMinEagerLimit = 256;

struct BtlLimits {
    uint64_t eager_limit;    // largest header + payload sent unasked
    uint64_t max_send_size;  // largest header + payload of any send
    uint32_t exclusivity;    // PLEXUS_BTL_EXCLUSIVITY_* band or a value between
};

namespace detail {

// The value of btl_<name>_<what>, or nothing when the core has none or it is the sentinel.
inline bool btl_param(const plexus_host_api_t *host, const plexus_component_t *self, const char *what,
                      plexus_param_value_t *out) noexcept {
    if (!PLEXUS_HOST_HAS(host, param_lookup) || !self || !self->name) return false;
    char full[128];
    const int n = std::snprintf(full, sizeof full, "btl_%s_%s", self->name, what);
    if (n <= 0 || static_cast<size_t>(n) >= sizeof full) return false;
    return host->param_lookup(full, out) == PLEXUS_SUCCESS;
}

}  // namespace detail

// The limits the user set for self's component, the component's own defaults elsewhere.
inline BtlLimits btl_limits(const plexus_host_api_t *host, const plexus_component_t *self,
                            const BtlLimits &defaults) noexcept {
    BtlLimits l = defaults;
    plexus_param_value_t v{};
    if (detail::btl_param(host, self, "eager_limit", &v) && v.u > 0) l.eager_limit = v.u;
    if (detail::btl_param(host, self, "max_send_size", &v) && v.u > 0) l.max_send_size = v.u;
    if (detail::btl_param(host, self, "exclusivity", &v) && v.i >= 0) l.exclusivity = static_cast<uint32_t>(v.i);
    return l;
}

// Empty when l is consistent, else one sentence naming the parameters and what is valid.
inline std::string check_btl_limits(const char *name, const BtlLimits &l) {
    const std::string prefix = std::string("btl_") + name + "_";
    if (l.eager_limit < kMinEagerLimit || l.eager_limit > l.max_send_size)
        return prefix + "eager_limit is " + std::to_string(l.eager_limit) + " bytes; valid: from " +
               std::to_string(kMinEagerLimit) + " bytes to " + prefix + "max_send_size (" +
               std::to_string(l.max_send_size) + " bytes)";
    return "";
}

// What the PML and BML plan with.
inline void apply_btl_limits(const BtlLimits &l, plexus_btl_module_t *m) noexcept {
    m->eager_limit = static_cast<size_t>(l.eager_limit);
    m->max_send_size = static_cast<size_t>(l.max_send_size);
    m->exclusivity = l.exclusivity;
}

// A component's parameter struct with the three members eager_limit, max_send_size and
// exclusivity: its limits as a BtlLimits, and the limits the user set read into it (its values
// before the call are the component's defaults).
template <class Params>
BtlLimits limits_of(const Params &p) noexcept {
    return {p.eager_limit, p.max_send_size, p.exclusivity};
}

template <class Params>
void read_btl_limits(const plexus_host_api_t *host, const plexus_component_t *self, Params *p) noexcept {
    const BtlLimits l = btl_limits(host, self, limits_of(*p));
    p->eager_limit = l.eager_limit;
    p->max_send_size = l.max_send_size;
    p->exclusivity = l.exclusivity;
}

// The checks a BTL with interface lists and a send queue makes on its own parameters: one
// sentence naming them and what is valid, or empty.
inline std::string check_if_lists(const char *name, const char *include, const char *exclude) {
    if (!include || !*include || !exclude || !*exclude) return "";
    const std::string prefix = std::string("btl_") + name + "_";
    return prefix + "if_include (" + include + ") and " + prefix + "if_exclude (" + exclude +
           ") are both set; set one of them";
}

inline std::string check_max_queued(const char *name, uint64_t max_queued, uint64_t max_send_size) {
    if (max_queued >= max_send_size) return "";
    const std::string prefix = std::string("btl_") + name + "_";
    return prefix + "max_queued is " + std::to_string(max_queued) + " bytes, below " + prefix + "max_send_size (" +
           std::to_string(max_send_size) + " bytes); valid: at least " + prefix + "max_send_size";
}

}  // namespace plexus::sdk
