// The dpm_pmix component: dynamic processes through the job manager's PMIx (README.md). Usable
// wherever the core runs; what the job manager cannot do (a singleton has none) fails the call
// that needs it, with the job manager's reason.
#include <plexus/component.h>
#include <plexus/dpm.h>
#include <plexus/sdk/descriptor.hpp>

#include "pmix_module.h"

namespace {

constexpr int kPriority = 40;  // above the portable band: the baseline every PMIx server serves
const plexus_host_api_t *g_host = nullptr;
const plexus_component_t *g_self = nullptr;

struct DpmPmix {
    static constexpr plexus::sdk::Identity identity{
        "plexus-dpm-pmix", "BSD-3-Clause",
        "dynamic processes through PMIx: spawn, ports, join, names (the baseline)", {1, 0, 0}};

    static int open(const plexus_host_api_t *host, const plexus_component_t *self, plexus_reason_t *why) {
        if (!PLEXUS_HOST_HAS(host, job_info)) {
            plexus::sdk::set_reason(why, "the core's host API has no job information");
            return PLEXUS_ERR_NOT_AVAILABLE;
        }
        g_host = host;
        g_self = self;
        return PLEXUS_SUCCESS;
    }

    static int close() {
        plexus::dpm_pmix::destroy_module();
        return PLEXUS_SUCCESS;
    }

    static int query(const void *, plexus_query_result_t *result) {
        return plexus::sdk::offer(result, kPriority, plexus::dpm_pmix::create_module(g_host, g_self));
    }
};

}  // namespace

PLEXUS_SDK_COMPONENT(dpm, pmix, PLEXUS_DPM_MAJOR, PLEXUS_DPM_MINOR, DpmPmix);
