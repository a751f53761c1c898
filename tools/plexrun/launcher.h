// plexrun as a whole: it starts the first namespace, serves libpmix's upcalls, reaps the
// ranks, ends the job on the first failure (or signal, or timeout) and cleans up after it.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "binding.h"
#include "event_loop.h"
#include "job.h"
#include "job_dir.h"
#include "namespace_launcher.h"
#include "options.h"
#include "output_forwarder.h"
#include "pmix_server_handle.h"
#include "publish_store.h"
#include "upcalls.h"

namespace plexrun {

class Launcher : public Host {
public:
    explicit Launcher(Options options);
    ~Launcher() override;

    // Runs the job to its end; returns plexrun's exit status.
    int run();

    // Host: libpmix's requests, on the event loop's thread (launcher_upcalls.cc).
    void client_connected(const ProcName &proc, OpDone done) override;
    void client_finalized(const ProcName &proc, OpDone done) override;
    void abort(const ProcName &proc, int status, const std::string &message) override;
    void publish(const ProcName &proc, PublishRequest request, OpDone done) override;
    void lookup(const ProcName &proc, LookupRequest request, LookupDone done) override;
    void unpublish(const ProcName &proc, std::vector<std::string> keys, OpDone done) override;
    void spawn(const ProcName &proc, std::vector<AppSpec> apps, SpawnDone done) override;
    void kill_request(const ProcName &proc) override;

private:
    void start_first_namespace();
    void arm_timeout();
    void on_signals();
    void reap_children();
    void rank_ended(Namespace &ns, RankRecord &r, int wait_status);
    // The first call decides the exit status and prints MESSAGE (an ordinary one only under
    // --verbose); the job is then killed.
    void fail(int exit_status, const std::string &message, bool ordinary = false);
    void signal_ranks(int sig);
    void kill_job(int first_signal);
    void kill_namespace(Namespace &ns);
    void finish();
    [[noreturn]] void leave_without_libpmix(const char *why);
    void kill_and_reap_everything();

    Options options_;
    EventLoop loop_;
    JobDir dir_;
    std::unique_ptr<CoreMap> cores_;
    Job job_;
    PublishStore store_{loop_};
    OutputForwarder output_;
    UniqueFd signals_;
    std::optional<int> exit_status_;  // set once the job is ending early
    bool escalation_armed_ = false;
    std::optional<EventLoop::Clock::time_point> first_signal_;  // SIGINT/TERM/HUP received
    bool lost_client_ = false;  // a rank ended after PMIx_Init without PMIx_Finalize
    // Last: libpmix is finalised (its upcalls stop) before anything they use goes away.
    std::unique_ptr<PmixServer> server_;
    std::unique_ptr<NamespaceLauncher> launcher_;
};

}  // namespace plexrun
