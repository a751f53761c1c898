// A good osc test component, until the real osc components exist: its window module fills the
// 1.1 struct, accepts every window a process makes alone (the MPI layer's fallback is what tests
// exercise with it) and declines larger groups; it moves no data, so its communication and
// synchronisation functions stay NULL (the MPI layer answers MPI_ERR_UNSUPPORTED_OPERATION).
#include <plexus/osc.h>

#include <cstddef>
#include <cstring>
#include <new>

#include "test_component.h"

namespace {

struct Window {
    plexus_osc_module_t module;  // first: the core sees a plexus_osc_module_t *
    plexus_osc_scope_t scope;
    void *allocated = nullptr;
};

Window *window_of(plexus_osc_module_t *m) { return reinterpret_cast<Window *>(m); }

int win_init(plexus_osc_module_t *self, void **base) {
    Window *w = window_of(self);
    if (w->scope.comm_size != 1) return PLEXUS_OSC_DECLINE;
    if (w->scope.flavor == PLEXUS_OSC_FLAVOR_ALLOCATE) {
        w->allocated = ::operator new(w->scope.size ? w->scope.size : 1, std::nothrow);
        if (!w->allocated) return PLEXUS_OSC_ERR_NO_MEM;
        *base = w->allocated;
    }
    return PLEXUS_OSC_SUCCESS;
}

int win_free(plexus_osc_module_t *self) {
    Window *w = window_of(self);
    ::operator delete(w->allocated);
    w->allocated = nullptr;
    return PLEXUS_OSC_SUCCESS;
}

void destroy(plexus_osc_module_t *self) {
    win_free(self);
    delete window_of(self);
}

struct OscGood : plexus_test::Good {
    static constexpr plexus::sdk::Identity identity{
        "plexus-tests", "BSD-3-Clause",
        "test osc: a window module for one process, priority from osc_good_query_priority",
        {1, 0, 0}};
    static int register_params(const plexus_host_api_t *host, const plexus_component_t *self) {
        return plexus_test::register_params(host, self, "20");
    }
    static int query(const void *scope, plexus_query_result_t *result) {
        const auto *s = static_cast<const plexus_osc_scope_t *>(scope);
        if (!s || s->struct_size < offsetof(plexus_osc_scope_t, flavor) + sizeof s->flavor)
            return plexus::sdk::decline(result, "no window scope");
        int rc = Good::query(scope, result);
        if (rc != PLEXUS_SUCCESS) return rc;
        auto *w = new (std::nothrow) Window{};
        if (!w) return PLEXUS_ERR_OUT_OF_RESOURCE;
        w->module.struct_size = sizeof(plexus_osc_module_t);
        w->module.major = PLEXUS_OSC_MAJOR;
        w->module.minor = PLEXUS_OSC_MINOR;
        w->module.win_init = win_init;
        w->module.win_free = win_free;
        w->module.destroy = destroy;
        // A 1.0 scope ends at flavor: keep only what the caller's struct has.
        const size_t have = s->struct_size < sizeof w->scope ? s->struct_size : sizeof w->scope;
        std::memcpy(&w->scope, s, have);
        result->module = &w->module;
        return PLEXUS_SUCCESS;
    }
};

}  // namespace

PLEXUS_SDK_COMPONENT(osc, good, PLEXUS_OSC_MAJOR, PLEXUS_OSC_MINOR, OscGood);
