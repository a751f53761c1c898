// plexus_coll_template: the smallest complete out-of-tree coll component, to copy when you start
// your own. It registers two parameters, logs when opened, and offers itself to communicators.
//
// Plain C++17 and the SDK headers only: nothing from Plexus is linked. Every call into the core
// goes through the host-API table handed to register_params() and open().
#include <plexus/coll.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>

namespace {

// Where this component ranks among the generic accelerated ones (20-49, see component.h); the
// range on priority_boost keeps 25 + boost inside that band, whatever the user sets.
constexpr int kBasePriority = 25;
constexpr int64_t kMaxBoost = PLEXUS_PRIORITY_GENERIC_MAX - kBasePriority;

// Process-wide state: the core loads each component file once per process.
struct State {
    const plexus_host_api_t *host = nullptr;
    int64_t priority_boost = 0;      // written by the core when the parameter is registered
    const char *greeting = nullptr;  // owned by the core, valid until it finalizes
    bool opened = false;
};
State g_state;

}  // namespace

// The descriptor is declared before the functions so that they can name themselves to the host
// (log and param_register take the descriptor's address as "self").
PLEXUS_DECLARE_COMPONENT(coll, template);

namespace {

const plexus_component_t *self() { return &PLEXUS_COMPONENT_SYMBOL(coll, template); }

// A different host-API major means a different table layout: touch nothing in it. Members that a
// later minor appends need `host->minor >= N` before use; this component uses 1.0 members only.
bool host_is_compatible(const plexus_host_api_t *host) {
    return host && host->major == PLEXUS_HOST_API_MAJOR;
}

int register_param(const plexus_host_api_t *host, plexus_param_desc_t desc) {
    desc.struct_size = sizeof desc;
    return host->param_register(self(), &desc);
}

// Called for every component found, selected or not, so that plexus_info can list the
// parameters: no device probing or allocation here. Full names: coll_template_<name>.
int template_register_params(const plexus_host_api_t *host, const plexus_component_t *) noexcept {
    if (!host_is_compatible(host)) return PLEXUS_ERR_NOT_AVAILABLE;

    plexus_param_desc_t boost{};
    boost.name = "priority_boost";
    boost.type = PLEXUS_PARAM_INT;
    boost.default_value = "0";
    boost.help = "Added to the template component's priority (25) for communicators of two or more "
                 "processes; raise it to prefer this component over other generic ones.";
    boost.level = 5;
    boost.has_range = 1;
    boost.min = 0;
    boost.max = kMaxBoost;
    boost.storage = &g_state.priority_boost;
    int rc = register_param(host, boost);
    if (rc != PLEXUS_SUCCESS) return rc;

    plexus_param_desc_t greeting{};
    greeting.name = "greeting";
    greeting.type = PLEXUS_PARAM_STRING;
    greeting.default_value = "hello from the template component";
    greeting.help = "Text the template component logs when it is opened (visible with "
                    "coll_base_verbose=1).";
    greeting.level = 9;
    greeting.storage = &g_state.greeting;
    return register_param(host, greeting);
}

// Acquire process-wide resources here (devices, shared segments, progress callbacks); to decline,
// return PLEXUS_ERR_NOT_AVAILABLE with a reason the user can act on.
int template_open(const plexus_host_api_t *host, plexus_reason_t *why) noexcept {
    if (!host_is_compatible(host)) {
        if (why)
            std::snprintf(why->text, sizeof why->text,
                          "built for host API %d, this Plexus offers %d: rebuild the component",
                          PLEXUS_HOST_API_MAJOR, host ? int(host->major) : -1);
        return PLEXUS_ERR_NOT_AVAILABLE;
    }
    g_state.host = host;
    g_state.opened = true;
    host->log(self(), PLEXUS_LOG_DECISION, "%s (priority %d)",
              g_state.greeting ? g_state.greeting : "",
              kBasePriority + int(g_state.priority_boost));
    return PLEXUS_SUCCESS;
}

// Release everything open() acquired; the core may unload the file afterwards.
int template_close() noexcept {
    g_state.host = nullptr;
    g_state.opened = false;
    return PLEXUS_SUCCESS;
}

// A scope from an older core may be shorter than ours: read only the fields it has.
bool scope_has_size(const plexus_coll_scope_t *comm) {
    return comm->struct_size >= offsetof(plexus_coll_scope_t, size) + sizeof comm->size;
}

int decline(plexus_query_result_t *result, const char *reason) {
    std::snprintf(result->why.text, sizeof result->why.text, "%s", reason);
    return PLEXUS_ERR_NOT_AVAILABLE;
}

// Called per communicator. A real component would build its module here (module: the
// framework's function table for this communicator); the template has nothing to offer but rank.
int template_query(const void *scope, plexus_query_result_t *result) noexcept {
    if (!result) return PLEXUS_ERR_BAD_PARAM;
    if (!g_state.opened) return decline(result, "the template component is not open");
    const auto *comm = static_cast<const plexus_coll_scope_t *>(scope);
    if (!comm) return decline(result, "no communicator given");
    if (!scope_has_size(comm)) return decline(result, "communicator description too short");
    if (comm->size < 2) return decline(result, "serves communicators of 2 or more processes only");
    result->priority = kBasePriority + int(g_state.priority_boost);
    result->module = nullptr;
    return PLEXUS_SUCCESS;
}

}  // namespace

// The one exported symbol. The core checks magic, sizes, ABI versions and that framework and name
// match the file name (plexus_coll_template.so) before calling anything.
PLEXUS_DECLARE_COMPONENT(coll, template) = {
    PLEXUS_COMPONENT_INIT(coll, PLEXUS_COLL_MAJOR, PLEXUS_COLL_MINOR, template, 1, 0, 0),
    "plexus-coll-template",                                // package that ships it
    "BSD-3-Clause",                                        // license (SPDX)
    "template coll component: copy it to start your own",  // plexus_info's one line
    template_register_params,
    template_open,
    template_close,
    template_query,
};
