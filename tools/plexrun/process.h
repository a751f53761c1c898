// Starting one rank: vfork, own process group, parent-death signal, CPU binding, stdio, exec.
#pragma once

#include <sched.h>
#include <sys/types.h>

#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace plexrun {

struct ProcessSpec {
    std::string path;  // resolved executable (see find_executable)
    std::vector<std::string> argv;
    std::vector<std::string> env;  // the complete environment
    std::string cwd;               // empty: plexrun's
    int stdin_fd = -1;             // each of these is dup2'ed onto 0, 1, 2
    int stdout_fd = -1;
    int stderr_fd = -1;
    std::optional<cpu_set_t> cpus;  // binding, applied before exec
};

// exec (or chdir) failed in the child; the child has exited and still needs reaping.
struct ExecError : std::runtime_error {
    ExecError(pid_t pid, int error, const std::string &what)
        : std::runtime_error(what), pid(pid), error(error) {}
    pid_t pid;
    int error;
};

// Returns once the program is running (exec succeeded): the child reports a failed exec
// through a close-on-exec pipe, so no rank is mistaken for one that started.
pid_t start_process(const ProcessSpec &spec);

// NAME as execvp would find it: NAME itself if it has a '/', else the first executable match
// in PATH. An empty result sets *error (ENOENT or EACCES, as the shell reports 127 or 126).
std::string find_executable(const std::string &name, const std::string &path,
                            const std::string &cwd, int *error);

}  // namespace plexrun
