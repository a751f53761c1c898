// Shared body of the good test components, written with the component SDK (plexus/sdk/): each
// registers query_priority and usable parameters so that tests can steer priorities, ties and
// refusals from the environment, as users would.
#pragma once

#include <plexus/component.h>
#include <plexus/sdk/descriptor.hpp>
#include <plexus/sdk/param.hpp>
#include <plexus/sdk/reason.hpp>

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
    return plexus::sdk::register_params(
        host, self,
        {plexus::sdk::int_param("query_priority", &s.query_priority, default_priority,
                                "Priority this test component answers query() with", 9)
             .range(0, 100),
         plexus::sdk::bool_param("usable", &s.usable, "true",
                                 "When false, this test component declines in query() with a reason", 9)});
}

// open, close and query of a good test component; a component struct derives from it and adds its
// identity and register_params (PLEXUS_TEST_COMPONENT), or replaces one of them.
struct Good {
    static int open(const plexus_host_api_t *host, const plexus_component_t *self, plexus_reason_t *) {
        state().host = host;
        state().self = self;
        state().opened = 1;
        host->log(self, PLEXUS_LOG_DETAIL, "opened");
        return PLEXUS_SUCCESS;
    }
    static int close() {
        state().opened = 0;
        return PLEXUS_SUCCESS;
    }
    static int query(const void *, plexus_query_result_t *result) {
        const State &s = state();
        if (!s.usable)
            return plexus::sdk::decline(result, "declined: %s_%s_usable is false", s.self->framework, s.self->name);
        return plexus::sdk::offer(result, static_cast<int>(s.query_priority), nullptr);
    }
};

}  // namespace plexus_test

// Defines a complete good test component of framework fw named cname.
#define PLEXUS_TEST_COMPONENT(fw, FWMAJ, FWMIN, cname, default_priority, desc)                           \
    namespace {                                                                                          \
    struct TestComponent : plexus_test::Good {                                                           \
        static constexpr plexus::sdk::Identity identity{"plexus-tests", "BSD-3-Clause", desc, {1, 0, 0}}; \
        static int register_params(const plexus_host_api_t *host, const plexus_component_t *self) {      \
            return plexus_test::register_params(host, self, default_priority);                           \
        }                                                                                                \
    };                                                                                                   \
    }                                                                                                    \
    PLEXUS_SDK_COMPONENT(fw, cname, FWMAJ, FWMIN, TestComponent)
