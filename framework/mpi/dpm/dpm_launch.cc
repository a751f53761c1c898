// Commands to spawn requests, and the launch through the runtime.
#include "mpi/dpm/dpm_launch.h"

#include <sys/stat.h>
#include <unistd.h>

#include <climits>
#include <cstdlib>
#include <cstring>

#include "mpi.h"
#include "mpi/dpm/dpm.h"
#include "runtime/runtime.h"

namespace plexus::mpi::dpm {
namespace {

// The launcher may start the processes elsewhere than in our working directory.
std::string absolute(const std::string &file) {
    char buf[PATH_MAX];
    return ::realpath(file.c_str(), buf) ? std::string(buf) : file;
}

bool executable(const std::string &file) {
    struct stat st;
    return ::stat(file.c_str(), &st) == 0 && S_ISREG(st.st_mode) && ::access(file.c_str(), X_OK) == 0;
}

std::string in_dirs(const std::string &cmd, const std::string &dirs) {
    size_t start = 0;
    while (start <= dirs.size()) {
        size_t end = dirs.find(':', start);
        if (end == std::string::npos) end = dirs.size();
        const std::string dir = dirs.substr(start, end - start);
        const std::string file = (dir.empty() ? std::string(".") : dir) + "/" + cmd;
        if (executable(file)) return absolute(file);
        start = end + 1;
    }
    return "";
}

std::string host_name() {
    char buf[256] = {};
    if (::gethostname(buf, sizeof buf - 1) != 0) return "";
    return buf;
}

const char *info_value(const plexus_dpm_command_t &c, const char *key) {
    for (int i = 0; i < c.ninfo; ++i)
        if (c.info_keys[i] && std::strcmp(c.info_keys[i], key) == 0) return c.info_values[i];
    return nullptr;
}

}  // namespace

std::string resolve_command(const std::string &cmd, const std::string &path, const std::string &wdir,
                            std::string *why) {
    if (cmd.empty()) return *why = "the command is empty", "";
    if (cmd.find('/') != std::string::npos) {
        const std::string file = cmd[0] == '/' || wdir.empty() ? cmd : wdir + "/" + cmd;
        if (executable(file)) return absolute(file);
        return *why = "'" + file + "' does not exist or is not an executable file", "";
    }
    if (!path.empty())
        if (std::string f = in_dirs(cmd, path); !f.empty()) return f;
    const char *env_path = std::getenv("PATH");
    if (std::string f = in_dirs(cmd, env_path ? env_path : "/usr/bin:/bin"); !f.empty()) return f;
    return *why = "command '" + cmd + "' was not found" + (path.empty() ? "" : " in info path '" + path + "' nor") +
                  " in PATH",
           "";
}

int spawn_request(const plexus_dpm_command_t &c, const char *const *env, runtime::SpawnRequest *out,
                  std::string *why) {
    const char *wdir = info_value(c, "wdir");
    const char *path = info_value(c, "path");
    if (const char *host = info_value(c, "host")) {
        // plexrun runs one node: this one.
        const std::string h = host;
        if (h != "localhost" && h != host_name())
            return *why = "info host '" + h + "' is not this node (" + host_name() +
                          "): this launcher starts processes on its own node only",
                   MPI_ERR_SPAWN;
    }
    if (wdir) {
        struct stat st;
        if (::stat(wdir, &st) != 0 || !S_ISDIR(st.st_mode))
            return *why = std::string("info wdir '") + wdir + "' is not a directory", MPI_ERR_SPAWN;
    }
    // arch and soft are accepted: one node has one architecture, and all processes are started
    // or none (soft's smaller counts are never needed).
    const std::string file = resolve_command(c.command ? c.command : "", path ? path : "", wdir ? wdir : "", why);
    if (file.empty()) return MPI_ERR_SPAWN;
    out->command = file;
    out->argv = {c.command};
    if (c.argv)
        for (const char *const *a = c.argv; *a; ++a) out->argv.push_back(*a);
    out->env.clear();
    if (env)
        for (const char *const *e = env; *e; ++e) out->env.push_back(*e);
    out->cwd = wdir ? wdir : "";
    out->maxprocs = c.maxprocs;
    return MPI_SUCCESS;
}

int launch(int n, const plexus_dpm_command_t cmds[], const char *const *env, char *nspace, size_t nspace_len,
           int errcodes[]) {
    int total = 0;
    for (int i = 0; i < n; ++i) total += cmds[i].maxprocs;
    auto fail_all = [&](int cls) {
        if (errcodes)
            for (int p = 0; p < total; ++p) errcodes[p] = cls;
        return cls;
    };
    runtime::Runtime *rt = runtime::Runtime::current();
    if (!rt) return set_error("the runtime is not running"), fail_all(MPI_ERR_INTERN);
    std::vector<runtime::SpawnRequest> requests(static_cast<size_t>(n));
    for (int i = 0; i < n; ++i) {
        std::string why;
        if (int rc = spawn_request(cmds[i], env, &requests[static_cast<size_t>(i)], &why)) {
            // Nothing is started: every process's code says so.
            set_error((n > 1 ? "command " + std::to_string(i) + ": " : std::string()) + why +
                      "; no process was started");
            return fail_all(rc);
        }
    }
    std::string ns;
    if (runtime::Status s = rt->spawn(requests, &ns); !s) {
        // Slurm's PMIx plugin (srun --mpi=pmix) answers every spawn so: none of its servers starts processes.
        if (s.code == PLEXUS_ERR_NOT_SUPPORTED)
            s.message = "the launcher's PMIx server does not start processes (Slurm's srun --mpi=pmix does not; "
                        "plexrun does): " + s.message;
        // plexrun --universe-size (and PRRTE without oversubscription) say so this way.
        const std::string why = s.code == PLEXUS_ERR_OUT_OF_RESOURCE
                                    ? std::to_string(total) + " more process(es) do not fit in the universe's free "
                                                              "slots (MPI_UNIVERSE_SIZE); "
                                    : std::string();
        set_error("the job manager refused the spawn: " + why + s.message);
        return fail_all(MPI_ERR_SPAWN);
    }
    if (ns.size() + 1 > nspace_len) {
        set_error("namespace name '" + ns + "' is longer than the buffer");
        return fail_all(MPI_ERR_INTERN);
    }
    std::memcpy(nspace, ns.c_str(), ns.size() + 1);
    if (errcodes)
        for (int p = 0; p < total; ++p) errcodes[p] = MPI_SUCCESS;
    return MPI_SUCCESS;
}

}  // namespace plexus::mpi::dpm
