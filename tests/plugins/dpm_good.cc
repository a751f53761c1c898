// A good dpm test component, until the real dpm components exist: its module fills the 1.1
// struct and answers init as a job that was not spawned (no parent); it starts and meets no
// other job, so spawn, ports and join stay NULL (the MPI layer answers
// MPI_ERR_UNSUPPORTED_OPERATION).
#include <plexus/dpm.h>

#include "test_component.h"

namespace {

int init(plexus_dpm_module_t *, const plexus_dpm_services_t *services, plexus_coll_comm_t *,
         plexus_coll_comm_t **parent) {
    if (!services || !parent) return PLEXUS_DPM_ERR_ARG;
    *parent = nullptr;
    return PLEXUS_DPM_SUCCESS;
}

int finalize(plexus_dpm_module_t *) { return PLEXUS_DPM_SUCCESS; }

plexus_dpm_module_t make_module() {
    plexus_dpm_module_t m{};
    m.struct_size = sizeof m;
    m.major = PLEXUS_DPM_MAJOR;
    m.minor = PLEXUS_DPM_MINOR;
    m.init = init;
    m.finalize = finalize;
    return m;
}

plexus_dpm_module_t module = make_module();

struct DpmGood : plexus_test::Good {
    static constexpr plexus::sdk::Identity identity{
        "plexus-tests", "BSD-3-Clause",
        "test dpm: always usable, priority from dpm_good_query_priority", {1, 0, 0}};
    static int register_params(const plexus_host_api_t *host, const plexus_component_t *self) {
        return plexus_test::register_params(host, self, "20");
    }
    static int query(const void *scope, plexus_query_result_t *result) {
        int rc = Good::query(scope, result);
        if (rc == PLEXUS_SUCCESS) result->module = &module;
        return rc;
    }
};

}  // namespace

PLEXUS_SDK_COMPONENT(dpm, good, PLEXUS_DPM_MAJOR, PLEXUS_DPM_MINOR, DpmGood);
