// The coll_basic component: its descriptor, parameters and query (a module per communicator).
// coll_basic serves every collective on every communicator and never declines a call: it is the
// end of every communicator's fallback chain.
#include <plexus/coll.h>
#include <plexus/component.h>
#include <plexus/sdk/descriptor.hpp>
#include <plexus/sdk/host.hpp>

#include "basic_module.h"
#include "basic_params.h"
#include "basic_scratch.h"

namespace {

constexpr int kPriority = 10;  // portable fallback band: any other coll component goes first
const plexus_host_api_t *g_host = nullptr;

// coll_basic_priority (registered by the core for every component) also sets the priority of each
// function, which is what the per-function chains are ordered by.
int function_priority() {
    plexus_param_value_t v{};
    if (g_host && g_host->param_lookup("coll_basic_priority", &v) == PLEXUS_SUCCESS && v.i >= 0 &&
        v.i <= PLEXUS_PRIORITY_MAX)
        return static_cast<int>(v.i);
    return kPriority;
}

struct Basic {
    static constexpr plexus::sdk::Identity identity{
        "plexus-coll-basic", "BSD-3-Clause",
        "every collective on every communicator: textbook algorithms over point-to-point", {1, 0, 0}};

    static int register_params(const plexus_host_api_t *host, const plexus_component_t *self) {
        g_host = host;
        return plexus::coll_basic::register_params(host, self);
    }

    static int open(const plexus_host_api_t *host, const plexus_component_t *self, plexus_reason_t *) {
        g_host = host;
        plexus_job_info_t job{};
        job.struct_size = sizeof job;
        const bool known = PLEXUS_HOST_HAS_OR_LOG(host, self, job_info, "the node is taken as not oversubscribed") &&
                           host->job_info(&job) == PLEXUS_SUCCESS;
        plexus::coll_basic::set_node_cpus(known ? job.cpus_online : 0);
        return PLEXUS_SUCCESS;
    }

    // MPI_Finalize: the temporaries cached for later calls go.
    static int close() {
        plexus::coll_basic::scratch_trim();
        return PLEXUS_SUCCESS;
    }

    static int query(const void *scope_ptr, plexus_query_result_t *result) {
        const auto *scope = static_cast<const plexus_coll_scope_t *>(scope_ptr);
        if (!scope) return plexus::sdk::decline(result, "no communicator given to query");
        const int priority = function_priority();
        plexus::coll_basic::Module *m =
            plexus::coll_basic::create_module(*scope, priority, &plexus::coll_basic::params());
        if (!m) {
            plexus::sdk::set_reason(&result->why, "out of memory for the module");
            return PLEXUS_ERR_OUT_OF_RESOURCE;
        }
        return plexus::sdk::offer(result, priority, &m->base);
    }
};

}  // namespace

PLEXUS_SDK_COMPONENT(coll, basic, PLEXUS_COLL_MAJOR, PLEXUS_COLL_MINOR, Basic);
