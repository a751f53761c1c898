// A good reconf test component, until the real reconf components exist: its module fills the
// 1.1 struct, asks for phase events and counts them, and moves no fast channel.
#include <plexus/reconf.h>

#include "test_component.h"

namespace {

struct Phases {
    plexus_reconf_module_t module;  // first: the core sees a plexus_reconf_module_t *
    const plexus_reconf_services_t *services = nullptr;
    int phases = 0;
};

int init(plexus_reconf_module_t *self, const plexus_reconf_services_t *services, plexus_coll_comm_t *) {
    if (!services) return PLEXUS_ERR_BAD_PARAM;
    reinterpret_cast<Phases *>(self)->services = services;
    return PLEXUS_SUCCESS;
}

void event(plexus_reconf_module_t *self, const plexus_reconf_event_t *ev) {
    if (ev && ev->kind == PLEXUS_RECONF_EV_PHASE) ++reinterpret_cast<Phases *>(self)->phases;
}

int finalize(plexus_reconf_module_t *self) {
    auto *p = reinterpret_cast<Phases *>(self);
    plexus_test::state().host->log(plexus_test::state().self, PLEXUS_LOG_DETAIL, "%d phases", p->phases);
    p->services = nullptr;
    return PLEXUS_SUCCESS;
}

Phases make_module() {
    Phases p{};
    p.module.struct_size = sizeof p.module;
    p.module.major = PLEXUS_RECONF_MAJOR;
    p.module.minor = PLEXUS_RECONF_MINOR;
    p.module.observe = PLEXUS_RECONF_EV_PHASE;
    p.module.init = init;
    p.module.event = event;
    p.module.finalize = finalize;
    return p;
}

Phases module = make_module();

struct ReconfGood : plexus_test::Good {
    static constexpr plexus::sdk::Identity identity{
        "plexus-tests", "BSD-3-Clause",
        "test reconf: always usable, priority from reconf_good_query_priority", {1, 0, 0}};
    static int register_params(const plexus_host_api_t *host, const plexus_component_t *self) {
        return plexus_test::register_params(host, self, "20");
    }
    static int query(const void *scope, plexus_query_result_t *result) {
        int rc = Good::query(scope, result);
        if (rc == PLEXUS_SUCCESS) result->module = &module.module;
        return rc;
    }
};

}  // namespace

PLEXUS_SDK_COMPONENT(reconf, good, PLEXUS_RECONF_MAJOR, PLEXUS_RECONF_MINOR, ReconfGood);
