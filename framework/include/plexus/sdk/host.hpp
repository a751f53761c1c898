// Which host-API members the core a component runs in offers. The table only ever grows (members
// are appended by minor versions), so a component built against a newer component.h may be handed
// a shorter table by an older core: a member is usable when the table is of this major, long
// enough to hold it, and set.
#pragma once

#include <cstddef>

#include <plexus/component.h>

// True when host is a table of PLEXUS_HOST_API_MAJOR whose struct_size covers member and member
// is non-NULL. Reads nothing struct_size does not vouch for.
#define PLEXUS_HOST_HAS(host, member)                                                       \
    ((host) != nullptr && (host)->major == PLEXUS_HOST_API_MAJOR &&                          \
     (host)->struct_size >= offsetof(plexus_host_api_t, member) + sizeof((host)->member) && \
     (host)->member != nullptr)

// PLEXUS_HOST_HAS, and when the member is missing, says so (at PLEXUS_LOG_DECISION, with what the
// component does instead) rather than quietly doing without it.
#define PLEXUS_HOST_HAS_OR_LOG(host, self, member, instead) \
    (PLEXUS_HOST_HAS(host, member) || (::plexus::sdk::log_missing((host), (self), #member, (instead)), false))

namespace plexus::sdk {

// A table of another major has another layout: nothing in it may be touched.
inline bool host_compatible(const plexus_host_api_t *host) noexcept {
    return host && host->major == PLEXUS_HOST_API_MAJOR;
}

inline void log_missing(const plexus_host_api_t *host, const plexus_component_t *self, const char *member,
                        const char *instead) noexcept {
    if (!PLEXUS_HOST_HAS(host, log)) return;
    host->log(self, PLEXUS_LOG_DECISION, "host API %u.%u has no %s: %s", unsigned(host->major),
              unsigned(host->minor), member, instead);
}

// What to assume when the core cannot tell whether the user set a parameter (a core before host
// API 1.3, or a name it does not know).
enum class IfUnknown { user_set, default_value };

// Whether the user set full_name (command line, environment, a parameter file) rather than
// leaving its default, through host API 1.3's param_is_set.
inline bool param_is_set(const plexus_host_api_t *host, const char *full_name, IfUnknown if_unknown) noexcept {
    if (!PLEXUS_HOST_HAS(host, param_is_set)) return if_unknown == IfUnknown::user_set;
    const int rc = host->param_is_set(full_name);
    if (rc < 0) return if_unknown == IfUnknown::user_set;
    return rc == 1;
}

}  // namespace plexus::sdk
