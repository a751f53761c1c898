// The C entry points of the window module: each finds the Window behind the handle.
#include "rdma_module.h"

#include <new>

namespace plexus::osc_rdma {
namespace {

Window *w(plexus_osc_module_t *m) { return reinterpret_cast<ModuleHandle *>(m)->window.get(); }

int win_init(plexus_osc_module_t *m, void **base) { return w(m)->init(base); }
int win_free(plexus_osc_module_t *m) { return w(m)->free_window(); }
void destroy(plexus_osc_module_t *m) { delete reinterpret_cast<ModuleHandle *>(m); }

int put(plexus_osc_module_t *m, const void *o, int oc, plexus_coll_dtype_t *ot, int t, ptrdiff_t d, int tc,
        plexus_coll_dtype_t *tt) {
    return w(m)->put(o, oc, ot, t, d, tc, tt);
}
int get(plexus_osc_module_t *m, void *o, int oc, plexus_coll_dtype_t *ot, int t, ptrdiff_t d, int tc,
        plexus_coll_dtype_t *tt) {
    return w(m)->get(o, oc, ot, t, d, tc, tt);
}
int accumulate(plexus_osc_module_t *m, const void *o, int oc, plexus_coll_dtype_t *ot, int t, ptrdiff_t d, int tc,
               plexus_coll_dtype_t *tt, plexus_coll_op_t *op) {
    return w(m)->accumulate(o, oc, ot, t, d, tc, tt, op);
}
int fence(plexus_osc_module_t *m, int a) { return w(m)->fence(a); }
int start(plexus_osc_module_t *m, int n, const int r[], int a) { return w(m)->start(n, r, a); }
int complete(plexus_osc_module_t *m) { return w(m)->complete(); }
int post(plexus_osc_module_t *m, int n, const int r[], int a) { return w(m)->post(n, r, a); }
int wait(plexus_osc_module_t *m) { return w(m)->wait(); }
int test(plexus_osc_module_t *m, int *flag) { return w(m)->test(flag); }
int lock(plexus_osc_module_t *m, int type, int t, int a) { return w(m)->lock(type, t, a); }
int unlock(plexus_osc_module_t *m, int t) { return w(m)->unlock(t); }

}  // namespace

ModuleHandle *create_module(const plexus_osc_scope_t &scope, const Config &config, const plexus_host_api_t *host) {
    auto *h = new (std::nothrow) ModuleHandle{};
    if (!h) return nullptr;
    plexus_osc_module_t &b = h->base;
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
    try {
        h->window = std::make_unique<Window>(scope, config, host);
    } catch (const std::bad_alloc &) {
        delete h;
        return nullptr;
    }
    return h;
}

}  // namespace plexus::osc_rdma
