// The PML: MPI point-to-point semantics over the BTLs. Matching per (context, source, tag) in MPI
// order, unexpected messages, eager sends, rendezvous (RTS/CTS with get/put or fragments),
// synchronous-send acknowledgements and truncation. One instance per process, made by MPI_Init.
//
// Every function returns an MPI error class (MPI_SUCCESS when fine); the arguments were checked by
// the MPI layer before the call (valid ranks, tags, buffers, comm).
#pragma once

#include <memory>
#include <utility>

#include "mpi/communicator.h"
#include "mpi/proc_table.h"
#include "mpi/request.h"
#include "runtime/progress.h"
#include "runtime/status.h"

namespace plexus::mca {
class McaCore;
}

namespace plexus::mpi {

class Bml;

// What a probe found (the message stays queued).
struct ProbeResult {
    int source = -1;
    int tag = -1;
    size_t bytes = 0;
};

class Pml {
public:
    // After the runtime's init fence and MCA init: selects the BTLs, builds the BML for the
    // world. Fails (with a message naming what is missing) when a peer is unreachable.
    static runtime::Status create(mca::McaCore &core, ProcTable &procs, std::unique_ptr<Pml> *out);
    // Over BTLs the caller chose and peers it already added (tests; other embeddings).
    static std::unique_ptr<Pml> create(std::unique_ptr<Bml> bml, runtime::ProgressEngine &engine, ProcTable &procs);
    ~Pml();

    // Communicators: before first use and after last use (all requests on it complete).
    void add_comm(Comm *comm);
    void remove_comm(Comm *comm);

    // Starts the operation req describes (kind, mode, buf, bytes, peer, tag, comm). peer is
    // never MPI_PROC_NULL here (the MPI layer completes those itself). On return req may already
    // be complete.
    int start_send(Request *req);
    int start_recv(Request *req);

    // MPI_Iprobe: *found and, when found, *out.
    int iprobe(int source, int tag, Comm *comm, bool *found, ProbeResult *out);

    // MPI_Cancel of a receive: true when it had not matched (req is then complete, cancelled).
    bool cancel(Request *req);
    // MPI_Cancel of a send, started and not yet retired by the MPI layer (an eager send that is
    // complete already counts). A send still waiting for BTL resources is withdrawn at once;
    // otherwise the receiver is asked, and req is incomplete until it answers: then it completes
    // with status.cancelled set when the message was withdrawn unmatched, or as usual when it
    // had matched. follower (or nullptr), which the caller made incomplete, completes with the
    // same answer (the user's handle of a buffered send). Asking twice asks once.
    void cancel_send(Request *req, Request *follower = nullptr);

    // One pass over the BTLs and the PML's own pending work; returns events seen.
    int progress() { return engine_->poll(); }
    // Waits (progress with back-off, see runtime/backoff.h) until done() is true.
    template <class Done>
    void wait_until(Done &&done) {
        engine_->wait_until(std::forward<Done>(done));
    }
    runtime::ProgressEngine &engine() { return *engine_; }

    // Completes every outstanding send and acknowledgement; called by MPI_Finalize before the
    // final fence so that nothing a peer is waiting for is lost.
    void drain();

    Bml &bml();
    // proc has gone (MPI_Comm_disconnect), or its id names a newcomer: its paths are looked up
    // again on next use, its sequence numbers start again, nothing queued to it is sent.
    void forget_peer(uint32_t proc);

    // The state (pml_impl.h); public so that the BTL callbacks of the PML's files can reach it.
    struct Impl;

private:
    Pml();
    runtime::ProgressEngine *engine_ = nullptr;
    std::unique_ptr<Impl> impl_;
};

}  // namespace plexus::mpi
