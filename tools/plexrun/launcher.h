// plexrun as a whole: it starts the first namespace, serves libpmix's upcalls, reaps the
// ranks, ends the job on the first failure (or signal, or timeout) and cleans up after it.
#pragma once

#include <list>
#include <map>
#include <memory>
#include <optional>
#include <set>
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
#include "rendezvous.h"
#include "upcalls.h"

namespace plexrun {

class Launcher : public Host, public RendezvousHandler {
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
    void fence_across(FenceKind kind, std::vector<ProcName> procs, int timeout_s,
                      OpDone done) override;
    void direct_modex(const ProcName &proc, int timeout_s, ModexDone done) override;

    // RendezvousHandler: other plexruns' requests (launcher_remote.cc).
    std::vector<FoundEntry> answer_lookup(const ProcName &requester,
                                          const std::vector<std::string> &keys) override;
    void answer_dmodex(const ProcName &proc, ModexDone done) override;
    bool answer_job(const std::string &nspace, RemoteJob *out) override;
    bool answer_holds(pid_t from, const ProcName &publisher, const std::vector<std::string> &keys) override;
    void fence_arrived(pid_t from, const std::string &signature) override;
    void plexrun_lost(pid_t pid) override;

private:
    // A PMIx_Connect/Disconnect spanning plexruns: this plexrun's side arrived (done set)
    // and/or the fence messages of the others, counted per plexrun.
    struct CrossFence {
        std::optional<OpDone> done;
        std::set<pid_t> needed;
        std::map<pid_t, int> arrived;
        EventLoop::TimerId timer = 0;
    };
    // A publish that asks the other plexruns first whether they hold one of its names (a
    // duplicate there is refused as one here would be).
    struct SpanningPublish {
        ProcName publisher;
        PublishRequest request;
        OpDone done;
        std::vector<std::string> keys;
        int outstanding = 0;
        bool held = false;
        bool answered = false;
    };
    // A lookup that asks the other plexruns too, again every kLookupRetry while it waits (and
    // this plexrun's store again at each publish here).
    struct SpanningLookup {
        ProcName requester;
        LookupRequest request;
        LookupDone done;
        EventLoop::Clock::time_point deadline;
        std::map<std::string, FoundEntry> found;
        int outstanding = 0;
        int round = 0;  // answers of a round given up on are ignored
        bool answered = false;
    };
    void publish_everywhere(const ProcName &proc, PublishRequest request, OpDone done);
    void conclude_publish(const std::shared_ptr<SpanningPublish> &op);
    void try_fence(const std::string &signature);
    void modex_of_known(const ProcName &proc, ModexDone done);
    void learn_remote_job(const std::string &nspace, RemoteJob job);
    void lookup_everywhere(const std::shared_ptr<SpanningLookup> &op);
    bool look_here(const std::shared_ptr<SpanningLookup> &op);
    void retry_spanning_here();
    bool satisfied(const SpanningLookup &op) const;
    std::vector<std::string> missing_keys(const SpanningLookup &op) const;
    void conclude_lookup(const std::shared_ptr<SpanningLookup> &op);
    void answer_spanning(SpanningLookup &op, pmix_status_t status_if_none);
    void cancel_remote_work();
    void start_rendezvous();

    void start_first_namespace();
    void arm_timeout();
    void on_signals();
    void reap_children();
    void rank_ended(Namespace &ns, RankRecord &r, int wait_status);
    void purge_if_ended(Namespace &ns);
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
    std::map<std::string, CrossFence> fences_;  // by signature
    // Other plexruns' namespaces registered with libpmix, and the direct-modex requests waiting
    // for a namespace's registration.
    std::set<std::string> remote_namespaces_;
    std::map<std::string, std::vector<std::pair<ProcName, ModexDone>>> awaiting_job_;
    std::list<std::shared_ptr<SpanningLookup>> spanning_;
    // Names of publishes still asking the other plexruns (each may be asked about meanwhile).
    std::map<std::string, int> pending_names_;
    std::list<std::shared_ptr<SpanningPublish>> spanning_publishes_;
    std::unique_ptr<Rendezvous> rendezvous_;  // null when this plexrun could not make one
    // Last: libpmix is finalised (its upcalls stop) before anything they use goes away.
    std::unique_ptr<PmixServer> server_;
    std::unique_ptr<NamespaceLauncher> launcher_;
};

}  // namespace plexrun
