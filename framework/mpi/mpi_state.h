// The process-wide state of the MPI library: what MPI_Init builds (runtime, MCA core, process
// table, PML, the predefined communicators) and MPI_Finalize takes down, plus the pools the
// calls in between share. Reached through g_mpi, which is null whenever MPI is not running, so
// that one comparison guards every call.
#pragma once

#include <pthread.h>

#include <memory>

#include "mpi.h"
#include "mpi/bsend_buffer.h"
#include "mpi/error_report.h"
#include "mpi/pml/pml.h"
#include "mpi/proc_table.h"
#include "mpi/request_pool.h"

namespace plexus::mca {
class McaCore;
}
namespace plexus::runtime {
class RuntimeSession;
}

namespace plexus::mpi {

enum class Phase { Before, Running, After };

class MpiState {
public:
    // MPI_Init / MPI_Init_thread: the whole start-up. On failure, prints what failed and aborts
    // the job (MPI_COMM_WORLD's handler is MPI_ERRORS_ARE_FATAL until the program changes it).
    static int init(const char *function, int required, int *provided);
    // MPI_Finalize: completes buffered and freed sends, drains the PML, fences, tears down.
    static int finalize();
    ~MpiState();

    Pml &pml() { return *pml_; }
    ProcTable &procs() { return procs_; }
    RequestPool requests;
    // A request for a nonblocking call. Before the pool grows, requests that were freed while
    // active or sent buffered data and have completed since go back to it, so that a program
    // that frees its send requests runs in bounded memory.
    Request *new_request() {
        if (requests.empty() && (freed_active || bsend.used_blocks())) [[unlikely]]
            reap();
        return requests.get();
    }
    BsendBuffer bsend;
    // Requests freed (MPI_Request_free) while active, linked through mpi_next; released by
    // reap_freed() once complete.
    Request *freed_active = nullptr;
    // The requests of blocking calls (MPI_Send, MPI_Recv, MPI_Sendrecv ...), reused from call to
    // call: blocking calls never nest, and one thread calls MPI (MPI_THREAD_FUNNELED).
    Request *blocking_send() { return fresh(&blocking_send_); }
    Request *blocking_recv() { return fresh(&blocking_recv_); }
    int thread_level = MPI_THREAD_SINGLE;
    pthread_t main_thread{};

    // Releases the freed requests and buffered sends that have completed.
    void reap();

private:
    static Request *fresh(Request *r) {
        reset_request(r);
        return r;
    }
    MpiState() = default;
    void build(const char *function);
    void setup_predefined_comms();
    void adapt_progress_to_node(const runtime::JobInfo &job);

    // Declared in construction order; destroyed in reverse (PML, core, runtime).
    std::unique_ptr<runtime::RuntimeSession> runtime_;
    std::unique_ptr<mca::McaCore> core_;
    ProcTable procs_;
    std::unique_ptr<Pml> pml_;
    Request blocking_send_, blocking_recv_;
};

// Hidden: read on every call, so without going through the GOT.
[[gnu::visibility("hidden")]] extern MpiState *g_mpi;
[[gnu::visibility("hidden")]] extern Phase g_phase;

// The state for a call that needs MPI running; otherwise says so and ends the process.
inline MpiState &running(const char *function) {
    MpiState *s = g_mpi;
    if (!s) [[unlikely]]
        called_when_not_running(function);
    return *s;
}

}  // namespace plexus::mpi
