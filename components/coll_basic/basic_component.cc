// The coll_basic component: its descriptor, parameters and query (a module per communicator).
// coll_basic serves every collective on every communicator and never declines a call: it is the
// end of every communicator's fallback chain.
#include <cstdio>

#include <plexus/coll.h>
#include <plexus/component.h>

#include "basic_module.h"
#include "basic_params.h"
#include "basic_scratch.h"

PLEXUS_DECLARE_COMPONENT(coll, basic);

namespace {

constexpr int kPriority = 10;  // portable fallback band: any other coll component goes first
const plexus_host_api_t *g_host = nullptr;

int basic_register(const plexus_host_api_t *host, const plexus_component_t *self) {
    g_host = host;
    return plexus::coll_basic::register_params(host, self);
}

int basic_open(const plexus_host_api_t *host, plexus_reason_t *) {
    g_host = host;
    plexus_job_info_t job{};
    job.struct_size = sizeof job;
    const bool known = host->minor >= 1 && host->job_info && host->job_info(&job) == PLEXUS_SUCCESS;
    plexus::coll_basic::decide_oversubscribed(known && job.oversubscribed);
    return PLEXUS_SUCCESS;
}

// MPI_Finalize: the temporaries cached for later calls go.
int basic_close() {
    plexus::coll_basic::scratch_trim();
    return PLEXUS_SUCCESS;
}

// coll_basic_priority (registered by the core for every component) also sets the priority of each
// function, which is what the per-function chains are ordered by.
int function_priority() {
    plexus_param_value_t v{};
    if (g_host && g_host->param_lookup("coll_basic_priority", &v) == PLEXUS_SUCCESS && v.i >= 0 &&
        v.i <= PLEXUS_PRIORITY_MAX)
        return static_cast<int>(v.i);
    return kPriority;
}

int basic_query(const void *scope_ptr, plexus_query_result_t *result) {
    const auto *scope = static_cast<const plexus_coll_scope_t *>(scope_ptr);
    if (!scope) {
        std::snprintf(result->why.text, sizeof result->why.text, "no communicator given to query");
        return PLEXUS_ERR_NOT_AVAILABLE;
    }
    const int priority = function_priority();
    plexus::coll_basic::Module *m =
        plexus::coll_basic::create_module(*scope, priority, &plexus::coll_basic::params());
    if (!m) {
        std::snprintf(result->why.text, sizeof result->why.text, "out of memory for the module");
        return PLEXUS_ERR_OUT_OF_RESOURCE;
    }
    result->priority = priority;
    result->module = &m->base;
    return PLEXUS_SUCCESS;
}

}  // namespace

PLEXUS_DECLARE_COMPONENT(coll, basic) = {
    PLEXUS_COMPONENT_INIT(coll, PLEXUS_COLL_MAJOR, PLEXUS_COLL_MINOR, basic, 1, 0, 0),
    "plexus-coll-basic", "BSD-3-Clause",
    "every collective on every communicator: textbook algorithms over point-to-point",
    basic_register, basic_open, basic_close, basic_query};
