// Generalized requests: their callbacks, and the hand-over of a completion made on another
// thread to the main thread's progress (see grequest.h).
#include "mpi/grequest.h"

#include <pthread.h>

#include <algorithm>
#include <string>
#include <vector>

#include "mpi/error_report.h"
#include "mpi/request_check.h"
#include "mpi/request_complete.h"

namespace plexus::mpi {

namespace {

// The generalized requests not yet seen complete by the main thread. Only the main thread
// touches the list; a completing thread raises the signal after setting its request's event.
struct Watch {
    std::vector<Request *> pending;
    std::atomic<unsigned> signals{0};
    runtime::ProgressEngine *engine = nullptr;  // where poll() is registered
};

Watch &watch() {
    static Watch w;
    return w;
}

Grequest &grequest_of(const Request &r) { return *static_cast<Grequest *>(r.mpi_data); }

// Ready for the completion calls: completed, and when freed first, free_fn done too.
bool ready(unsigned events) {
    return (events & kGreqFreed) ? (events & kGreqReleasable) != 0 : (events & kGreqCompleted) != 0;
}

void forget(Request *r) {
    auto &p = watch().pending;
    if (auto it = std::find(p.begin(), p.end(), r); it != p.end()) {
        *it = p.back();
        p.pop_back();
    }
}

// The request is done with: its callbacks go, then it goes back to the pool.
void release(MpiState &s, Request *r) {
    delete &grequest_of(*r);
    r->mpi_data = nullptr;
    r->mpi_flags &= ~kRequestGeneralized;
    s.requests.put(r);
}

// Progress callback (main thread): completions signalled since the last pass become visible.
int poll(void *) {
    Watch &w = watch();
    if (w.signals.load(std::memory_order_acquire) == 0) return 0;
    w.signals.exchange(0, std::memory_order_acq_rel);
    int events = 0;
    for (size_t i = 0; i < w.pending.size();) {
        Request *r = w.pending[i];
        const unsigned ev = grequest_of(*r).events.load(std::memory_order_acquire);
        if (!ready(ev)) {
            ++i;
            continue;
        }
        w.pending[i] = w.pending.back();
        w.pending.pop_back();
        if (ev & kGreqFreed) {
            // Freed by the program: nobody waits for it; MpiState::reap returns it to the pool.
            delete &grequest_of(*r);
            r->mpi_data = nullptr;
            r->mpi_flags &= ~kRequestGeneralized;
        }
        r->complete = true;
        ++events;
    }
    return events;
}

void signal_completion() { watch().signals.fetch_add(1, std::memory_order_acq_rel); }

bool on_main_thread(const MpiState &s) { return pthread_equal(pthread_self(), s.main_thread) != 0; }

int callback_failed(int code, const char *function, const char *callback) {
    return report_code(MPI_COMM_WORLD, code,
                       std::string(function) + ": the generalized request's " + callback + " returned an error");
}

}  // namespace

Request *start_grequest(MpiState &s, MPI_Grequest_query_function *query_fn, MPI_Grequest_free_function *free_fn,
                        MPI_Grequest_cancel_function *cancel_fn, void *extra_state) {
    Watch &w = watch();
    runtime::ProgressEngine &engine = s.pml().engine();
    if (w.engine != &engine) {
        engine.add(poll, nullptr);
        w.engine = &engine;
    }
    Request *r = s.new_request();
    r->mpi_flags = kRequestGeneralized;
    r->mpi_data = new Grequest{query_fn, free_fn, cancel_fn, extra_state};
    w.pending.push_back(r);
    return r;
}

int complete_grequest(MpiState &s, Request *r, const char *function) {
    if (!request_valid(r)) return report_invalid_request(function, r, -1);
    if (!is_grequest(r))
        return report_errorf(MPI_COMM_WORLD, MPI_ERR_REQUEST,
                             "%s: request %p is not a generalized request (only MPI_Grequest_start makes those)",
                             function, static_cast<const void *>(r));
    Grequest &g = grequest_of(*r);
    // Read before the event: once it is set the main thread may release g at any moment.
    MPI_Grequest_free_function *free_fn = g.free_fn;
    void *extra_state = g.extra_state;
    const unsigned before = g.events.fetch_or(kGreqCompleted, std::memory_order_acq_rel);
    if (before & kGreqCompleted)
        return report_errorf(MPI_COMM_WORLD, MPI_ERR_REQUEST,
                             "%s: generalized request %p was completed already (MPI_Grequest_complete is called "
                             "once per request)",
                             function, static_cast<const void *>(r));
    int rc = MPI_SUCCESS;
    if (before & kGreqFreed) {
        // MPI_Request_free came first: free_fn runs here (MPI-2.2 12.2), and only then may the
        // main thread give the request back.
        rc = free_fn(extra_state);
        g.events.fetch_or(kGreqReleasable, std::memory_order_acq_rel);
    }
    signal_completion();
    if (on_main_thread(s)) poll(nullptr);
    return rc == MPI_SUCCESS ? MPI_SUCCESS : callback_failed(rc, function, "free_fn");
}

int finish_grequest(MpiState &s, MPI_Request *handle, MPI_Status *status, const char *function) {
    Request *r = *handle;
    Grequest &g = grequest_of(*r);
    MPI_Status scratch;
    MPI_Status *st = status ? status : &scratch;
    // What query_fn does not set reads as an empty status; MPI_ERROR stays the caller's, as in
    // every single completion.
    const int user_error = status ? status->MPI_ERROR : MPI_SUCCESS;
    set_empty_status(st);
    st->MPI_ERROR = user_error;
    const int query_rc = g.query_fn(g.extra_state, st);
    const int free_rc = g.free_fn(g.extra_state);
    forget(r);
    release(s, r);
    *handle = MPI_REQUEST_NULL;
    // MPI-2.2 12.2: the call returns the last callback's code, free_fn's; query_fn's failure is
    // not lost when free_fn succeeds.
    if (free_rc != MPI_SUCCESS) return callback_failed(free_rc, function, "free_fn");
    if (query_rc != MPI_SUCCESS) return callback_failed(query_rc, function, "query_fn");
    return MPI_SUCCESS;
}

int query_grequest(const Request &r, MPI_Status *status, const char *function) {
    const Grequest &g = grequest_of(r);
    MPI_Status scratch;
    MPI_Status *st = status ? status : &scratch;
    const int user_error = status ? status->MPI_ERROR : MPI_SUCCESS;
    set_empty_status(st);
    st->MPI_ERROR = user_error;
    const int rc = g.query_fn(g.extra_state, st);
    return rc == MPI_SUCCESS ? MPI_SUCCESS : callback_failed(rc, function, "query_fn");
}

int free_grequest(MpiState &s, MPI_Request *handle, const char *function) {
    Request *r = *handle;
    Grequest &g = grequest_of(*r);
    *handle = MPI_REQUEST_NULL;
    const unsigned before = g.events.fetch_or(kGreqFreed, std::memory_order_acq_rel);
    if (!(before & kGreqCompleted)) {
        // MPI_Grequest_complete will run free_fn; the request waits among the freed ones.
        r->user_freed = true;
        r->mpi_next = s.freed_active;
        s.freed_active = r;
        return MPI_SUCCESS;
    }
    const int rc = g.free_fn(g.extra_state);
    forget(r);
    release(s, r);
    return rc == MPI_SUCCESS ? MPI_SUCCESS : callback_failed(rc, function, "free_fn");
}

int cancel_grequest(const Request &r, const char *function) {
    const Grequest &g = grequest_of(r);
    const bool completed = g.events.load(std::memory_order_acquire) & kGreqCompleted;
    const int rc = g.cancel_fn(g.extra_state, completed ? 1 : 0);
    return rc == MPI_SUCCESS ? MPI_SUCCESS : callback_failed(rc, function, "cancel_fn");
}

}  // namespace plexus::mpi
