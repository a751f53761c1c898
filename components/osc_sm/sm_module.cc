#include "sm_module.h"

#include <new>

namespace plexus::osc_sm {
namespace {

Window &w(plexus_osc_module_t *self) { return *reinterpret_cast<Module *>(self)->window; }

int win_init(plexus_osc_module_t *self, void **base) { return w(self).init(base); }
int win_free(plexus_osc_module_t *self) { return w(self).free_window(); }
void destroy(plexus_osc_module_t *self) { delete reinterpret_cast<Module *>(self); }

int put(plexus_osc_module_t *self, const void *o, int oc, plexus_coll_dtype_t *ot, int t, ptrdiff_t d, int tc,
        plexus_coll_dtype_t *tt) {
    return w(self).put(o, oc, ot, t, d, tc, tt);
}
int get(plexus_osc_module_t *self, void *o, int oc, plexus_coll_dtype_t *ot, int t, ptrdiff_t d, int tc,
        plexus_coll_dtype_t *tt) {
    return w(self).get(o, oc, ot, t, d, tc, tt);
}
int accumulate(plexus_osc_module_t *self, const void *o, int oc, plexus_coll_dtype_t *ot, int t, ptrdiff_t d, int tc,
               plexus_coll_dtype_t *tt, plexus_coll_op_t *op) {
    return w(self).accumulate(o, oc, ot, t, d, tc, tt, op);
}

int fence(plexus_osc_module_t *self, int a) { return w(self).fence(a); }
int start(plexus_osc_module_t *self, int n, const int r[], int a) { return w(self).start(n, r, a); }
int complete(plexus_osc_module_t *self) { return w(self).complete(); }
int post(plexus_osc_module_t *self, int n, const int r[], int a) { return w(self).post(n, r, a); }
int wait(plexus_osc_module_t *self) { return w(self).wait(); }
int test(plexus_osc_module_t *self, int *flag) { return w(self).test(flag); }
int lock(plexus_osc_module_t *self, int type, int t, int a) { return w(self).lock(type, t, a); }
int unlock(plexus_osc_module_t *self, int t) { return w(self).unlock(t); }

}  // namespace

Module *create_module(const plexus_osc_scope_t &scope, const plexus_host_api_t *host, const plexus_component_t *self) {
    auto *m = new (std::nothrow) Module{};
    if (!m) return nullptr;
    m->window.reset(new (std::nothrow) Window(scope, host, self));
    if (!m->window) {
        delete m;
        return nullptr;
    }
    plexus_osc_module_t &b = m->base;
    b.struct_size = sizeof b;
    b.major = PLEXUS_OSC_MAJOR;
    b.minor = PLEXUS_OSC_MINOR;
    b.win_init = win_init;
    b.win_free = win_free;
    b.destroy = destroy;
    b.put = put;
    b.get = get;
    b.accumulate = accumulate;
    b.fence = fence;
    b.start = start;
    b.complete = complete;
    b.post = post;
    b.wait = wait;
    b.test = test;
    b.lock = lock;
    b.unlock = unlock;
    return m;
}

}  // namespace plexus::osc_sm
