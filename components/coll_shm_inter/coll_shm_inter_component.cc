// The coll_shm_inter component: its descriptor, parameters and query. An intra-communicator's
// query is collective (it runs at the communicator's first collective call, in every process):
// the processes tell each other where they run, each node group maps a segment, and all agree
// whether every group could, so that every process offers the module or every process declines,
// with the reason in coll_base_verbose. An inter-communicator always gets a module: its local
// groups are set up at their first local phase, each group on its own.
#include <plexus/coll.h>
#include <plexus/component.h>
#include <plexus/sdk/descriptor.hpp>
#include <plexus/sdk/host.hpp>

#include <cstddef>
#include <memory>
#include <string>

#include "shm_module.h"
#include "shm_params.h"
#include "shm_two_level.h"

namespace {

using namespace plexus::coll_shm_inter;

// The generic accelerated band: ahead of coll_basic (10) for the calls it takes.
constexpr int kPriority = 30;
const plexus_host_api_t *g_host = nullptr;
const plexus_component_t *g_self = nullptr;

int function_priority() {
    plexus_param_value_t v{};
    if (g_host && g_host->param_lookup("coll_shm_inter_priority", &v) == PLEXUS_SUCCESS &&
        v.i >= 0 && v.i <= PLEXUS_PRIORITY_MAX)
        return static_cast<int>(v.i);
    return kPriority;
}

bool has_services(const plexus_coll_scope_t &scope) {
    return scope.struct_size >= offsetof(plexus_coll_scope_t, services) + sizeof scope.services &&
           scope.services != nullptr && scope.comm != nullptr;
}

struct ShmInter {
    static constexpr plexus::sdk::Identity identity{
        "plexus-coll-shm-inter",
        "BSD-3-Clause",
        "shared-memory collectives per node group, and inter-communicator collectives over them",
        {1, 0, 0}};

    static int register_params(const plexus_host_api_t *host, const plexus_component_t *self) {
        g_host = host;
        g_self = self;
        return plexus::coll_shm_inter::register_params(host, self);
    }

    static int open(const plexus_host_api_t *host, const plexus_component_t *self,
                    plexus_reason_t *why) {
        g_host = host;
        g_self = self;
        if (!PLEXUS_HOST_HAS(host, progress_wait) || !PLEXUS_HOST_HAS(host, job_info)) {
            plexus::sdk::set_reason(why, "the core offers no progress waits (host API before 1.1)");
            return PLEXUS_ERR_NOT_AVAILABLE;
        }
        plexus_job_info_t job{};
        job.struct_size = sizeof job;
        const bool crowded = host->job_info(&job) == PLEXUS_SUCCESS && job.oversubscribed;
        snapshot_params(crowded);
        return PLEXUS_SUCCESS;
    }

    static int close() { return PLEXUS_SUCCESS; }

    static int query(const void *scope_ptr, plexus_query_result_t *result) {
        const auto *scope = static_cast<const plexus_coll_scope_t *>(scope_ptr);
        if (!scope) return plexus::sdk::decline(result, "no communicator given to query");
        const int priority = function_priority();
        const bool live = has_services(*scope);
        Env env{g_host, live ? scope->services : nullptr, &params(), g_self};
        env.verbosity = g_host && g_host->verbosity ? g_host->verbosity(g_self) : 0;
        Module *m = nullptr;
        if (scope->is_inter) {
            m = create_inter_module(env, priority);
        } else if (scope->size < 2) {
            return plexus::sdk::decline(
                result, "a communicator of one process has nobody to share memory with");
        } else if (!live) {
            m = create_intra_module(env, nullptr, priority);  // a dry run's: never called
        } else {
            std::unique_ptr<TwoLevel> two;
            std::string why;
            const int rc = TwoLevel::create(env, scope->comm, &two, &why);
            if (rc == PLEXUS_ERR_NOT_AVAILABLE)
                return plexus::sdk::decline(result, "%s", why.c_str());
            if (rc != PLEXUS_SUCCESS)
                return plexus::sdk::decline(result,
                                            "the setup's messages failed (MPI error class %d)", rc);
            m = create_intra_module(env, std::move(two), priority);
        }
        if (!m) {
            plexus::sdk::set_reason(&result->why, "out of memory for the module");
            return PLEXUS_ERR_OUT_OF_RESOURCE;
        }
        return plexus::sdk::offer(result, priority, &m->base);
    }
};

}  // namespace

PLEXUS_SDK_COMPONENT(coll, shm_inter, PLEXUS_COLL_MAJOR, PLEXUS_COLL_MINOR, ShmInter);
