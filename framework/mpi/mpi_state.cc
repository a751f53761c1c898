// MPI_Init's start-up sequence and MPI_Finalize's tear-down, in the order the layers need:
// runtime, MCA core (components open and put their business cards), the init fence, the process
// table, the PML, the predefined communicators; and back.
#include "mpi/mpi_state.h"

#include "mpi/attributes/attribute_hooks.h"

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <thread>


#include "mca/mca_core.h"
#include "mpi/buffered_send.h"
#include "mpi/coll/coll_state.h"
#include "mpi/comm/comm_build.h"
#include "mpi/dpm/dpm.h"
#include "mpi/errhandler.h"
#include "mpi/request_complete.h"
#include "runtime/runtime.h"

namespace plexus::mpi {

MpiState *g_mpi = nullptr;
Phase g_phase = Phase::Before;

namespace {

// Start-up failures before MPI_COMM_WORLD exists: fatal, as its default handler would make them.
[[noreturn]] void init_failed(const char *function, const std::string &what, const std::string &detail) {
    // The detail goes to stderr once; the runtime and the launcher repeat only the short reason.
    const std::string reason = std::string(function) + ": " + what;
    abort_job(MPI_ERR_OTHER, reason + (detail.empty() ? "" : ": " + detail), reason);
}

void reset_comm(Comm &c, const char *name, uint32_t context_id) {
    c.magic = Comm::kMagic;
    c.context_id = context_id;
    c.inter = false;
    c.predefined = true;
    c.errhandler = MPI_ERRORS_ARE_FATAL;
    c.name = name;
    c.pml = nullptr;
}

// The final fence runs on a thread of its own while this one keeps the PML progressing: a peer
// may still need an answer from us (MPI_Cancel of a send to us asks the receiver) before it can
// reach the fence itself.
runtime::Status fence_while_progressing(runtime::Runtime &rt, Pml &pml) {
    std::atomic<bool> done{false};
    runtime::Status result = runtime::Status::ok();
    std::thread fence([&] {
        result = rt.fence();
        done.store(true, std::memory_order_release);
    });
    pml.wait_until([&done] { return done.load(std::memory_order_acquire); });
    fence.join();
    return result;
}

}  // namespace

void called_when_not_running(const char *function) {
    const char *when = g_phase == Phase::After ? "after MPI_Finalize" : "before MPI_Init";
    abort_job(MPI_ERR_OTHER, std::string(function) + " was called " + when +
                                 ": MPI calls other than MPI_Initialized, MPI_Finalized, MPI_Get_version "
                                 "and MPI_Get_library_version need MPI running");
}

int MpiState::init(const char *function, int required, int *provided) {
    if (g_phase != Phase::Before) {
        const std::string why = g_phase == Phase::Running ? "MPI is already initialized"
                                                          : "MPI cannot be initialized again after MPI_Finalize";
        return report_error(MPI_COMM_WORLD, MPI_ERR_OTHER, std::string(function) + ": " + why);
    }
    std::unique_ptr<MpiState> s(new MpiState());
    s->thread_level = required < MPI_THREAD_FUNNELED ? required : MPI_THREAD_FUNNELED;
    s->main_thread = pthread_self();
    s->build(function);
    if (provided) *provided = s->thread_level;
    g_mpi = s.release();
    g_phase = Phase::Running;
    // Once every other part runs: a spawned job meets its parents through the PML.
    dpm::init(function);
    return MPI_SUCCESS;
}

void MpiState::build(const char *function) {
    runtime_ = std::make_unique<runtime::RuntimeSession>();
    if (!runtime_->status()) init_failed(function, "the runtime did not start", runtime_->status().message);
    runtime::Runtime &rt = **runtime_;

    core_ = std::make_unique<mca::McaCore>(mca::CoreOptions::from_process());
    if (!core_->init()) {
        std::string detail;
        for (const auto &e : core_->errors()) detail += (detail.empty() ? "" : "; ") + e;
        init_failed(function, "the component framework did not start", detail);
    }
    adapt_progress_to_node(rt.job());
    if (runtime::Status st = rt.fence_init(); !st)
        init_failed(function, "the init fence (business-card exchange) failed", st.message);
    procs_.init_world(rt.job());
    if (runtime::Status st = Pml::create(*core_, procs_, &pml_); !st)
        init_failed(function, "the point-to-point layer (PML) did not start", st.message);
    setup_predefined_comms();
}

// More ranks of the job on this node than CPUs: waiting ranks give their CPU away at once and
// soon sleep (BackoffPolicy::for_oversubscribed_node), unless the user chose the spin count
// (then nothing changes) or the yield count (then only the spinning goes).
void MpiState::adapt_progress_to_node(const runtime::JobInfo &job) {
    auto user_set = [this](const char *name) {
        const mca::Param *p = core_->params().find(name);
        return p && p->source != mca::SourceKind::Default;
    };
    if (!job.oversubscribed() || user_set("runtime_progress_spin_count")) return;
    runtime::ProgressEngine &engine = core_->progress();
    engine.set_policy(engine.policy().for_oversubscribed_node(user_set("runtime_progress_yield_count")));
}

void MpiState::setup_predefined_comms() {
    Comm &world = plexus_mpi_comm_world;
    reset_comm(world, "MPI_COMM_WORLD", 0);
    world.rank = static_cast<int>(procs_.self());
    world.local_procs.resize(procs_.world_size());
    for (uint32_t r = 0; r < world.local_procs.size(); ++r) world.local_procs[r] = r;
    world.remote_procs = world.local_procs;

    Comm &self = plexus_mpi_comm_self;
    reset_comm(self, "MPI_COMM_SELF", 1);
    self.rank = 0;
    self.local_procs = self.remote_procs = {procs_.self()};

    pml_->add_comm(&world);
    pml_->add_comm(&self);
}

void MpiState::reap() {
    bsend.reap([this](Request *r) { requests.put(r); });
    Request **link = &freed_active;
    while (Request *r = *link) {
        if (!r->complete) {
            link = &r->mpi_next;
            continue;
        }
        *link = r->mpi_next;
        requests.put(r);
    }
}

int MpiState::finalize() {
    MpiState &s = running("MPI_Finalize");
    // MPI_COMM_SELF's attributes go first (MPI-2.2 8.7.1): their delete callbacks may still
    // communicate, so this runs while everything is up.
    if (int rc = attributes_finalize()) return rc;
    // Buffered sends and sends the program freed must reach their peers; receives it freed
    // and that never matched are cancelled (nobody can wait for them any more).
    drain_buffered(s);
    s.reap();
    for (Request *r = s.freed_active; r; r = r->mpi_next)
        if (r->kind == Request::Kind::Recv && !r->complete) s.pml().cancel(r);
    s.pml().wait_until([&s] {
        s.reap();
        return s.freed_active == nullptr;
    });
    // Ports close and names go before the fence, while the job manager still answers.
    dpm::finalize();
    s.pml().drain();
    runtime::Runtime &rt = **s.runtime_;
    if (runtime::Status st = fence_while_progressing(rt, s.pml()); !st)
        return report_error(MPI_COMM_WORLD, MPI_ERR_OTHER, "MPI_Finalize: the final fence failed: " + st.message);
    // Communicators the program made and did not free (and freed ones still held by requests).
    comms_finalize();
    // The predefined communicators' coll modules, while their components are still open.
    coll::release(MPI_COMM_SELF);
    coll::release(MPI_COMM_WORLD);
    s.pml().remove_comm(MPI_COMM_SELF);
    s.pml().remove_comm(MPI_COMM_WORLD);
    g_mpi = nullptr;
    g_phase = Phase::After;
    delete &s;
    // The predefined handles stay valid objects; they just no longer reach anybody.
    for (Comm *c : {MPI_COMM_WORLD, MPI_COMM_SELF}) {
        c->local_procs.clear();
        c->remote_procs.clear();
        c->rank = MPI_UNDEFINED;
    }
    return MPI_SUCCESS;
}

MpiState::~MpiState() = default;

}  // namespace plexus::mpi
