// plexus_coll_template: the smallest complete out-of-tree coll component, to copy when you start
// your own. It registers two parameters, logs when opened, and offers itself to communicators.
//
// Plain C++17 and the installed SDK headers only: nothing from Plexus is linked. Every call into
// the core goes through the host-API table handed to register_params() and open(). The SDK
// (plexus/sdk/) writes the descriptor and its C entry points from the struct below: they check
// the host API's major, hand each function this component's descriptor ("self") and keep C++
// exceptions from reaching the core.
#include <plexus/coll.h>
#include <plexus/sdk/descriptor.hpp>
#include <plexus/sdk/host.hpp>
#include <plexus/sdk/param.hpp>
#include <plexus/sdk/reason.hpp>

#include <cstddef>
#include <cstdint>

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

// A scope from an older core may be shorter than ours: read only the fields it has.
bool scope_has_size(const plexus_coll_scope_t *comm) {
    return comm->struct_size >= offsetof(plexus_coll_scope_t, size) + sizeof comm->size;
}

struct Template {
    static constexpr plexus::sdk::Identity identity{
        "plexus-coll-template",                                // package that ships it
        "BSD-3-Clause",                                        // license (SPDX)
        "template coll component: copy it to start your own",  // plexus_info's one line
        {1, 0, 0}};                                            // this component's version

    // Called for every component found, selected or not, so that plexus_info can list the
    // parameters: no device probing or allocation here. Full names: coll_template_<name>.
    static int register_params(const plexus_host_api_t *host, const plexus_component_t *self) {
        return plexus::sdk::register_params(
            host, self,
            {plexus::sdk::int_param("priority_boost", &g_state.priority_boost, "0",
                                    "Added to the template component's priority (25) for communicators of "
                                    "two or more processes; raise it to prefer this component over other "
                                    "generic ones.",
                                    5)
                 .range(0, kMaxBoost),
             plexus::sdk::string_param("greeting", &g_state.greeting, "hello from the template component",
                                       "Text the template component logs when it is opened (visible with "
                                       "coll_base_verbose=1).",
                                       9)});
    }

    // Acquire process-wide resources here (devices, shared segments, progress callbacks); to
    // decline, return PLEXUS_ERR_NOT_AVAILABLE with a reason the user can act on. Members a later
    // host-API minor appends are checked before use: PLEXUS_HOST_HAS(host, member).
    static int open(const plexus_host_api_t *host, const plexus_component_t *self, plexus_reason_t *) {
        g_state.host = host;
        g_state.opened = true;
        host->log(self, PLEXUS_LOG_DECISION, "%s (priority %d)", g_state.greeting ? g_state.greeting : "",
                  kBasePriority + int(g_state.priority_boost));
        // param_is_set came with host API 1.3: an older core's table ends before it.
        if (PLEXUS_HOST_HAS(host, param_is_set) && host->param_is_set("coll_template_priority_boost") == 1)
            host->log(self, PLEXUS_LOG_DECISION, "priority boost %d set by the user", int(g_state.priority_boost));
        return PLEXUS_SUCCESS;
    }

    // Release everything open() acquired; the core may unload the file afterwards.
    static int close() {
        g_state.host = nullptr;
        g_state.opened = false;
        return PLEXUS_SUCCESS;
    }

    // Called per communicator. A real component would build its module here (module: the
    // framework's function table for this communicator); the template has nothing to offer but
    // rank.
    static int query(const void *scope, plexus_query_result_t *result) {
        if (!g_state.opened) return plexus::sdk::decline(result, "the template component is not open");
        const auto *comm = static_cast<const plexus_coll_scope_t *>(scope);
        if (!comm) return plexus::sdk::decline(result, "no communicator given");
        if (!scope_has_size(comm)) return plexus::sdk::decline(result, "communicator description too short");
        if (comm->size < 2) return plexus::sdk::decline(result, "serves communicators of 2 or more processes only");
        return plexus::sdk::offer(result, kBasePriority + int(g_state.priority_boost), nullptr);
    }
};

}  // namespace

// The one exported symbol, plexus_coll_template_component. The core checks magic, sizes, ABI
// versions and that framework and name match the file name (plexus_coll_template.so) before
// calling anything.
PLEXUS_SDK_COMPONENT(coll, template, PLEXUS_COLL_MAJOR, PLEXUS_COLL_MINOR, Template);
