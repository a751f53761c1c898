// Shared body of the good test components: each registers query_priority and usable parameters
// so that tests can steer priorities, ties and refusals from the environment, as users would.
#pragma once

#include <plexus/component.h>

#include <cstdio>

namespace plexus_test {

struct State {
    const plexus_host_api_t *host = nullptr;
    const plexus_component_t *self = nullptr;
    int64_t query_priority = 0;
    int usable = 1;
    int opened = 0;
};

inline State &state() {
    static State s;  // one per shared object: every test component is its own .so
    return s;
}

inline int register_params(const plexus_host_api_t *host, const plexus_component_t *self,
                           const char *default_priority) {
    State &s = state();
    s.host = host;
    s.self = self;
    plexus_param_desc_t prio{};
    prio.struct_size = sizeof prio;
    prio.name = "query_priority";
    prio.type = PLEXUS_PARAM_INT;
    prio.default_value = default_priority;
    prio.help = "Priority this test component answers query() with";
    prio.level = 9;
    prio.has_range = 1;
    prio.min = 0;
    prio.max = 100;
    prio.storage = &s.query_priority;
    int rc = host->param_register(self, &prio);
    if (rc != PLEXUS_SUCCESS) return rc;
    plexus_param_desc_t usable{};
    usable.struct_size = sizeof usable;
    usable.name = "usable";
    usable.type = PLEXUS_PARAM_BOOL;
    usable.default_value = "true";
    usable.help = "When false, this test component declines in query() with a reason";
    usable.level = 9;
    usable.storage = &s.usable;
    return host->param_register(self, &usable);
}

inline int open_ok(const plexus_host_api_t *host, plexus_reason_t *) {
    state().host = host;
    state().opened = 1;
    host->log(state().self, PLEXUS_LOG_DETAIL, "opened");
    return PLEXUS_SUCCESS;
}

inline int close_ok() {
    state().opened = 0;
    return PLEXUS_SUCCESS;
}

inline int query_by_params(const void *, plexus_query_result_t *result) {
    const State &s = state();
    if (!s.usable) {
        std::snprintf(result->why.text, sizeof result->why.text,
                      "declined: %s_%s_usable is false", s.self->framework, s.self->name);
        return PLEXUS_ERR_NOT_AVAILABLE;
    }
    result->priority = static_cast<int>(s.query_priority);
    result->module = nullptr;
    return PLEXUS_SUCCESS;
}

}  // namespace plexus_test

// Defines a complete good test component of framework fw named name.
#define PLEXUS_TEST_COMPONENT(fw, FWMAJ, FWMIN, cname, default_priority, desc)                  \
    extern "C" const plexus_component_t PLEXUS_COMPONENT_SYMBOL(fw, cname);                   \
    static int test_register(const plexus_host_api_t *host, const plexus_component_t *self) { \
        return plexus_test::register_params(host, self, default_priority);                    \
    }                                                                                           \
    PLEXUS_DECLARE_COMPONENT(fw, cname) = {                                                    \
        PLEXUS_COMPONENT_INIT(fw, FWMAJ, FWMIN, cname, 1, 0, 0),                               \
        "plexus-tests", "BSD-3-Clause", desc, test_register, plexus_test::open_ok,             \
        plexus_test::close_ok, plexus_test::query_by_params}
