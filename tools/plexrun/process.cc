// vfork/exec of a rank. Everything the child needs is prepared before the vfork: the child runs
// in plexrun's memory, on this thread's stack, until it execs, so it makes system calls only
// (no allocation, no locks, no exceptions), as glibc's posix_spawn does. posix_spawn itself
// cannot set a parent-death signal or a binding. A fork would copy plexrun's page tables and
// leave every page plexrun writes afterwards to a copy-on-write fault; on this project's virtual
// machines a page fault costs 20-50 us, and plexrun paid them on every spawn (bench/dpm README,
// "Where a spawn cycle's time goes").
#include "process.h"

#include <fcntl.h>
#include <linux/close_range.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "unique_fd.h"

namespace plexrun {
namespace {

std::vector<char *> c_strings(const std::vector<std::string> &list) {
    std::vector<char *> out;
    for (const std::string &s : list) out.push_back(const_cast<char *>(s.c_str()));
    out.push_back(nullptr);
    return out;
}

[[noreturn]] void child_fail(int report_fd, int error) {
    [[maybe_unused]] ssize_t n = ::write(report_fd, &error, sizeof error);
    ::_exit(127);
}

// In the child, between vfork and exec: system calls only, nothing that allocates or locks.
[[noreturn]] void become_rank(const ProcessSpec &spec, char *const argv[], char *const envp[],
                              pid_t parent, int report_fd) {
    // Its own session, hence its own process group: plexrun kills a rank together with anything
    // it started. A session also makes the rank its own scheduling autogroup (as MPICH's hydra
    // does), so a build running in the background of the user's shell cannot take a rank's share
    // of its CPU down to one task's in that session. setsid cannot fail here: the child of a fork
    // is never a group leader, and plexrun does not move it into a group first.
    if (::setsid() < 0) ::setpgid(0, 0);
    // Dies with plexrun, even if plexrun is SIGKILLed; the check closes the race with a
    // parent that died before the prctl.
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (::getppid() != parent) ::_exit(127);
    // plexrun blocks the signals it reads from a signalfd and ignores SIGPIPE; the program
    // must start with the defaults.
    struct sigaction dfl {};
    dfl.sa_handler = SIG_DFL;
    for (int sig = 1; sig < NSIG; ++sig) ::sigaction(sig, &dfl, nullptr);
    sigset_t none;
    ::sigemptyset(&none);
    ::sigprocmask(SIG_SETMASK, &none, nullptr);
    if (::dup2(spec.stdin_fd, 0) < 0 || ::dup2(spec.stdout_fd, 1) < 0 ||
        ::dup2(spec.stderr_fd, 2) < 0)
        child_fail(report_fd, errno);
    // Nothing else of plexrun's (libpmix's sockets included) reaches the program.
    ::syscall(SYS_close_range, 3, ~0U, CLOSE_RANGE_CLOEXEC);
    if (spec.cpus) ::sched_setaffinity(0, sizeof(cpu_set_t), &*spec.cpus);
    if (!spec.cwd.empty() && ::chdir(spec.cwd.c_str()) != 0) child_fail(report_fd, errno);
    ::execve(spec.path.c_str(), argv, envp);
    child_fail(report_fd, errno);
}

// vfork with every signal blocked: the child shares this thread's stack, and a handler of
// plexrun's must not run in it before it has set every signal to its default.
pid_t vfork_rank(const ProcessSpec &spec, char *const argv[], char *const envp[], int report_fd) {
    sigset_t all, old;
    ::sigfillset(&all);
    ::pthread_sigmask(SIG_SETMASK, &all, &old);
    const pid_t parent = ::getpid();
    const pid_t pid = ::vfork();
    if (pid == 0) become_rank(spec, argv, envp, parent, report_fd);
    const int error = errno;
    ::pthread_sigmask(SIG_SETMASK, &old, nullptr);
    errno = error;
    return pid;
}

}  // namespace

pid_t start_process(const ProcessSpec &spec) {
    std::vector<char *> argv = c_strings(spec.argv);
    std::vector<char *> envp = c_strings(spec.env);
    Pipe report = make_pipe();
    const pid_t pid = vfork_rank(spec, argv.data(), envp.data(), report.write_end.get());
    if (pid < 0) throw_errno("vfork");
    // No setpgid from this side (it would make the child a group leader and its setsid fail):
    // this function returns only once the child has exec'd or failed, so the group exists
    // before plexrun can signal it. (vfork returns after the exec; the pipe still carries a
    // failure's errno.)
    report.write_end.reset();
    int error = 0;
    ssize_t n;
    do n = ::read(report.read_end.get(), &error, sizeof error);
    while (n < 0 && errno == EINTR);
    if (n > 0)
        throw ExecError(pid, error, "cannot run '" + spec.path + "': " + std::strerror(error));
    return pid;
}

std::string find_executable(const std::string &name, const std::string &path,
                            const std::string &cwd, int *error) {
    auto usable = [&](const std::string &p) {
        std::string full = (p.empty() || p[0] == '/' || cwd.empty()) ? p : cwd + "/" + p;
        struct stat st;
        if (::stat(full.c_str(), &st) != 0) return false;
        if (S_ISDIR(st.st_mode) || ::access(full.c_str(), X_OK) != 0) {
            *error = EACCES;
            return false;
        }
        return true;
    };
    *error = ENOENT;
    if (name.empty()) return "";
    if (name.find('/') != std::string::npos) return usable(name) ? name : "";
    size_t start = 0;
    while (start <= path.size()) {
        size_t colon = path.find(':', start);
        std::string dir =
            path.substr(start, colon == std::string::npos ? std::string::npos : colon - start);
        std::string candidate = (dir.empty() ? std::string(".") : dir) + "/" + name;
        if (usable(candidate)) return candidate;
        if (colon == std::string::npos) break;
        start = colon + 1;
    }
    return "";
}

}  // namespace plexrun
