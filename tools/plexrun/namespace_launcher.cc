// Registering and starting a namespace's ranks.
#include "namespace_launcher.h"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "process.h"
#include "trace.h"

namespace plexrun {
namespace {

std::string host_name() {
    char buf[256] = {};
    ::gethostname(buf, sizeof buf - 1);
    return buf;
}

}  // namespace

// PATH as the ranks get it; unset, the system's default, as execvp would use.
std::string NamespaceLauncher::search_path() const {
    std::string path = base_env_.get("PATH");
    if (!path.empty()) return path;
    char buf[1024] = {};
    ::confstr(_CS_PATH, buf, sizeof buf);
    return buf;
}

NamespaceLauncher::NamespaceLauncher(EventLoop &loop, PmixServer &server, OutputForwarder &output,
                                     Job &job, const Options &options, const CoreMap *cores)
    : loop_(loop),
      server_(server),
      output_(output),
      job_(job),
      bind_(options.bind),
      cores_(cores),
      base_env_(rank_environment(options.mca)),
      devnull_(::open("/dev/null", O_RDONLY | O_CLOEXEC)) {
    if (!devnull_) throw_errno("/dev/null");
    node_.hostname = host_name();
    given_universe_ = options.universe_size;
    cpus_ = static_cast<uint32_t>(cores_ ? cores_->cores() : ::sysconf(_SC_NPROCESSORS_ONLN));
}

uint32_t NamespaceLauncher::universe_size(size_t new_ranks) const {
    if (given_universe_) return static_cast<uint32_t>(*given_universe_);
    return std::max<uint32_t>(cpus_, static_cast<uint32_t>(job_.running_ranks() + new_ranks));
}

void NamespaceLauncher::launch(Namespace &ns) {
    std::vector<std::string> paths = resolve_programs(ns);
    NodeFacts node = node_;
    node.node_procs = static_cast<uint32_t>(job_.launched_ranks());
    node.universe_size = universe_size(ns.ranks.size());
    InfoList info;
    fill_namespace_info(ns, node, info);
    server_.register_namespace(ns.name, static_cast<int>(ns.ranks.size()), info);
    trace("registered namespace %s (job %d, %zu ranks)", ns.name.c_str(), ns.job, ns.ranks.size());
    const bool bind = binds(bind_, cores_, live_ranks(), static_cast<int>(ns.ranks.size()));
    for (RankRecord &r : ns.ranks) start_rank(ns, r, paths[r.app], bind);
}

// The ranks that occupy a CPU: started and not yet finalized. A finalized rank is on its way
// out; counting it would leave the child of every other spawn/disconnect cycle unbound, since
// the parent spawns the next child before plexrun has reaped the last one.
int NamespaceLauncher::live_ranks() const {
    int n = 0;
    for (const auto &ns : job_.namespaces())
        for (const RankRecord &r : ns->ranks) n += r.running && !r.finalized;
    return n;
}

// How many live ranks each core holds; forgets the ranks that no longer run.
CoreLoad NamespaceLauncher::core_load() {
    CoreLoad load(cores_->cores());
    std::map<int, int> still;
    for (const auto &ns : job_.namespaces())
        for (const RankRecord &r : ns->ranks) {
            auto it = core_of_.find(r.node_rank);
            if (it == core_of_.end() || !r.running) continue;
            still.insert(*it);
            if (!r.finalized) load.add(it->second);
        }
    core_of_ = std::move(still);
    return load;
}

std::vector<std::string> NamespaceLauncher::resolve_programs(const Namespace &ns) const {
    std::vector<std::string> paths;
    for (const AppSpec &app : ns.apps) {
        int error = 0;
        std::string path = find_executable(app.command, search_path(), app.cwd, &error);
        if (path.empty())
            throw LaunchError(
                error == EACCES ? 126 : 127,
                "cannot run '" + app.command + "': " + std::strerror(error) +
                    (app.command.find('/') == std::string::npos ? " (looked in PATH)" : ""));
        paths.push_back(path);
    }
    return paths;
}

std::vector<std::string> NamespaceLauncher::environment_of(const Namespace &ns,
                                                           const RankRecord &r) {
    Environment env = base_env_;
    for (const std::string &entry : ns.apps[r.app].env) env.set(entry);
    for (const std::string &entry : server_.client_environment(ProcName{ns.name, r.rank}))
        env.set(entry);
    return env.entries();
}

// Rank 0 of the first namespace gets plexrun's stdin; everyone else /dev/null.
int NamespaceLauncher::stdin_of(const Namespace &ns, const RankRecord &r, UniqueFd *keep) {
    if (ns.job != 1 || r.rank != 0) return devnull_.get();
    switch (choose_stdin_mode()) {
        case StdinMode::Inherit: return 0;
        case StdinMode::DevNull: return devnull_.get();
        case StdinMode::Forward: break;
    }
    Pipe p = make_pipe();
    stdin_forwarder_ = std::make_unique<StdinForwarder>(loop_, std::move(p.write_end));
    *keep = std::move(p.read_end);
    return keep->get();
}

void NamespaceLauncher::start_rank(Namespace &ns, RankRecord &r, const std::string &path, bool bind) {
    const AppSpec &app = ns.apps[r.app];
    server_.register_client(ProcName{ns.name, r.rank});
    Pipe out = make_pipe(), err = make_pipe();
    UniqueFd stdin_pipe;
    ProcessSpec spec;
    spec.path = path;
    spec.argv = app.argv;
    spec.env = environment_of(ns, r);
    spec.cwd = app.cwd;
    spec.stdin_fd = stdin_of(ns, r, &stdin_pipe);
    spec.stdout_fd = out.write_end.get();
    spec.stderr_fd = err.write_end.get();
    int core = -1;
    if (bind) {
        core = core_load().least_loaded();
        spec.cpus = cores_->cpus_for(core);
    }
    try {
        r.pid = start_process(spec);
    } catch (const ExecError &e) {
        ::waitpid(e.pid, nullptr, 0);  // it has already exited
        throw LaunchError(e.error == ENOENT ? 127 : 126, e.what());
    }
    r.running = true;
    if (core >= 0) core_of_[r.node_rank] = core;
    trace("started %s:%u as pid %d%s", ns.name.c_str(), r.rank, r.pid,
          core >= 0 ? (" (bound to core " + std::to_string(core) + ")").c_str() : "");
    output_.add(std::move(out.read_end), false, ns.job, r.rank);
    output_.add(std::move(err.read_end), true, ns.job, r.rank);
}

}  // namespace plexrun
