// The plexus_osc_module_t of one window, written once: a component's window class names its
// functions after the module's members, and OscModule<Window> is the C module the MPI layer holds
// with that window behind it, every entry point filled from the window's member functions.
//
//   struct MyWindow {                                   // any constructor
//       int init(void **base);  int free_window();      // win_init, win_free
//       int put(...); int get(...); int accumulate(...);
//       int fence(int); int start(int, const int[], int); int complete(); int post(int, const
//       int[], int); int wait(); int test(int *); int lock(int, int, int); int unlock(int);
//   };
//   plexus_osc_module_t *m = plexus::sdk::make_osc_module<MyWindow>(args...);  // NULL: no memory
//
// MPI-3's members (get_accumulate ... sync) stay NULL, which the MPI layer answers with
// MPI_ERR_UNSUPPORTED_OPERATION. destroy deletes the module and its window. A C++ exception
// never crosses into the C caller: it becomes PLEXUS_OSC_ERR_INTERN (PLEXUS_OSC_ERR_NO_MEM for
// bad_alloc).
#pragma once

#include <cstddef>
#include <memory>
#include <new>
#include <utility>

#include <plexus/osc.h>

namespace plexus::sdk {

template <class Window>
struct OscModule {
    plexus_osc_module_t base;  // first: the MPI layer's pointer is the module's
    std::unique_ptr<Window> window;

    static Window &of(plexus_osc_module_t *m) { return *reinterpret_cast<OscModule *>(m)->window; }
};

namespace osc_detail {

template <class F>
int guarded(F &&f) noexcept {
    try {
        return f();
    } catch (const std::bad_alloc &) {
        return PLEXUS_OSC_ERR_NO_MEM;
    } catch (...) {
        return PLEXUS_OSC_ERR_INTERN;
    }
}

template <class W>
struct Entry {
    using M = OscModule<W>;
    static int win_init(plexus_osc_module_t *m, void **base) {
        return guarded([&] { return M::of(m).init(base); });
    }
    static int win_free(plexus_osc_module_t *m) {
        return guarded([&] { return M::of(m).free_window(); });
    }
    static void destroy(plexus_osc_module_t *m) { delete reinterpret_cast<M *>(m); }
    static int put(plexus_osc_module_t *m, const void *o, int oc, plexus_coll_dtype_t *ot, int t,
                   ptrdiff_t d, int tc, plexus_coll_dtype_t *tt) {
        return guarded([&] { return M::of(m).put(o, oc, ot, t, d, tc, tt); });
    }
    static int get(plexus_osc_module_t *m, void *o, int oc, plexus_coll_dtype_t *ot, int t,
                   ptrdiff_t d, int tc, plexus_coll_dtype_t *tt) {
        return guarded([&] { return M::of(m).get(o, oc, ot, t, d, tc, tt); });
    }
    static int accumulate(plexus_osc_module_t *m, const void *o, int oc, plexus_coll_dtype_t *ot,
                          int t, ptrdiff_t d, int tc, plexus_coll_dtype_t *tt,
                          plexus_coll_op_t *op) {
        return guarded([&] { return M::of(m).accumulate(o, oc, ot, t, d, tc, tt, op); });
    }
    static int fence(plexus_osc_module_t *m, int a) {
        return guarded([&] { return M::of(m).fence(a); });
    }
    static int start(plexus_osc_module_t *m, int n, const int r[], int a) {
        return guarded([&] { return M::of(m).start(n, r, a); });
    }
    static int complete(plexus_osc_module_t *m) {
        return guarded([&] { return M::of(m).complete(); });
    }
    static int post(plexus_osc_module_t *m, int n, const int r[], int a) {
        return guarded([&] { return M::of(m).post(n, r, a); });
    }
    static int wait(plexus_osc_module_t *m) {
        return guarded([&] { return M::of(m).wait(); });
    }
    static int test(plexus_osc_module_t *m, int *flag) {
        return guarded([&] { return M::of(m).test(flag); });
    }
    static int lock(plexus_osc_module_t *m, int type, int t, int a) {
        return guarded([&] { return M::of(m).lock(type, t, a); });
    }
    static int unlock(plexus_osc_module_t *m, int t) {
        return guarded([&] { return M::of(m).unlock(t); });
    }
};

}  // namespace osc_detail

// Sets the version fields and every MPI-2.2 entry point of b to Window's functions (b is the base
// of an OscModule<Window>); the others are left as they are.
template <class Window>
void fill_osc_module(plexus_osc_module_t &b) {
    using E = osc_detail::Entry<Window>;
    b.struct_size = sizeof b;
    b.major = PLEXUS_OSC_MAJOR;
    b.minor = PLEXUS_OSC_MINOR;
    b.win_init = E::win_init;
    b.win_free = E::win_free;
    b.destroy = E::destroy;
    b.put = E::put;
    b.get = E::get;
    b.accumulate = E::accumulate;
    b.fence = E::fence;
    b.start = E::start;
    b.complete = E::complete;
    b.post = E::post;
    b.wait = E::wait;
    b.test = E::test;
    b.lock = E::lock;
    b.unlock = E::unlock;
}

// A filled module with a Window made from args; nullptr when memory runs out (the constructor's
// exceptions are not caught otherwise: a component whose constructor may throw catches them).
template <class Window, class... Args>
OscModule<Window> *make_osc_module(Args &&...args) {
    std::unique_ptr<OscModule<Window>> m(new (std::nothrow) OscModule<Window>{});
    if (!m) return nullptr;
    try {
        m->window = std::make_unique<Window>(std::forward<Args>(args)...);
    } catch (const std::bad_alloc &) {
        return nullptr;
    }
    fill_osc_module<Window>(m->base);
    return m.release();
}

}  // namespace plexus::sdk
