// The meeting point of the plexruns of one user on one machine. Each plexrun listens on a unix
// socket (0600) in the user's private runtime directory ($XDG_RUNTIME_DIR, else /tmp/plexus-UID
// made 0700), beside a key file (0600) holding a random secret. Another plexrun connects,
// checks by SO_PEERCRED that the listener is that pid of this uid, and proves itself with the
// key it could read; the listener checks the same. Over the link: lookups in the other's
// publish store, direct-modex requests for its processes' data, and the fence messages of a
// PMIx_Connect/Disconnect that spans both.
//
// The socket and key go when plexrun ends, whatever way it ends short of SIGKILL; a plexrun
// that finds the files of a dead one (or of one that no longer listens) removes them.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "event_loop.h"
#include "pmix_util.h"
#include "publish_store.h"
#include "upcalls.h"

namespace plexrun {

using RemoteLookupDone = std::function<void(bool reached, std::vector<FoundEntry> found)>;

// The job-level facts of another plexrun's namespace, registered with this plexrun's libpmix
// before any of its processes' data is asked for (launcher_remote.cc says why).
struct RemoteJob {
    uint32_t size = 0;
    uint32_t universe_size = 0;
    uint32_t apps = 0;
};
using RemoteJobDone = std::function<void(bool found, RemoteJob job)>;
// Whether another plexrun holds a name (reached false: it could not be asked).
using RemoteHoldsDone = std::function<void(bool reached, bool held)>;

// What the other plexruns ask of this one; the Launcher answers.
class RendezvousHandler {
public:
    virtual ~RendezvousHandler() = default;
    virtual std::vector<FoundEntry> answer_lookup(const ProcName &requester,
                                                  const std::vector<std::string> &keys) = 0;
    virtual void answer_dmodex(const ProcName &proc, ModexDone done) = 0;
    virtual bool answer_job(const std::string &nspace, RemoteJob *out) = 0;
    // Would a publish of any of KEYS by PUBLISHER (a process of plexrun FROM) be a duplicate here?
    virtual bool answer_holds(pid_t from, const ProcName &publisher, const std::vector<std::string> &keys) = 0;
    virtual void fence_arrived(pid_t from, const std::string &signature) = 0;
    virtual void plexrun_lost(pid_t pid) = 0;
};

class Rendezvous {
public:
    // Creates the key and the socket and listens; throws std::runtime_error saying why not.
    Rendezvous(EventLoop &loop, RendezvousHandler &handler);
    ~Rendezvous();
    Rendezvous(const Rendezvous &) = delete;
    Rendezvous &operator=(const Rendezvous &) = delete;

    const std::string &directory() const { return dir_; }
    // Removes the socket and key (and the directory if it made it and it is empty); for the
    // exits that skip destructors.
    void remove_files();
    // Answers every request still waiting (reached false) and closes every link; before
    // libpmix is finalised, since those answers go to it. The destructor drops them unanswered.
    void close_links();

    // The other plexruns that have files in the directory (files of dead ones are removed).
    std::vector<pid_t> others();

    // Requests; every callback is called exactly once (reached false when the link fails).
    void lookup(pid_t pid, const ProcName &requester, const std::vector<std::string> &keys,
                RemoteLookupDone done);
    void dmodex(pid_t pid, const ProcName &proc, ModexDone done);
    void job(pid_t pid, const std::string &nspace, RemoteJobDone done);
    void holds(pid_t pid, const ProcName &publisher, const std::vector<std::string> &keys, RemoteHoldsDone done);
    // false when plexrun PID cannot be reached.
    bool send_fence(pid_t pid, const std::string &signature);

private:
    struct Link;
    void create_key();
    void listen_on_socket();
    Link *link_to(pid_t pid);
    Link *connect_to(pid_t pid);
    void accept_one();
    void on_readable(Link *link);
    void handle(Link *link, const std::vector<char> &message);
    void handle_hello(Link *link, const std::vector<char> &message);
    bool send(Link *link, const std::vector<char> &frame);
    void drop(Link *link);
    std::string socket_path(pid_t pid) const;
    std::string key_path(pid_t pid) const;
    std::string unready_path(pid_t pid) const;  // the socket between bind and listen

    EventLoop &loop_;
    RendezvousHandler &handler_;
    std::string dir_;
    bool own_dir_ = false;  // /tmp/plexus-UID: removed when plexrun leaves it empty
    std::string secret_;
    UniqueFd listener_;
    bool files_ = false;
    std::map<int, std::unique_ptr<Link>> links_;  // by fd
    std::map<pid_t, Link *> by_pid_;              // authenticated links
    uint64_t next_request_ = 1;
    std::map<uint64_t, std::pair<int, RemoteLookupDone>> lookups_;  // by request id: fd, done
    std::map<uint64_t, std::pair<int, ModexDone>> modexes_;
    std::map<uint64_t, std::pair<int, RemoteJobDone>> jobs_;
    std::map<uint64_t, std::pair<int, RemoteHoldsDone>> holds_;
};

// "plexrun.<pid>.<job>": the plexrun that hosts NSPACE, or 0 for a namespace of no plexrun.
pid_t plexrun_of(const std::string &nspace);

}  // namespace plexrun
