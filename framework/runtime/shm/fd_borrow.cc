#include "runtime/shm/fd_borrow.h"

#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <mutex>

#include "runtime/unique_fd.h"

namespace plexus::runtime {
namespace {

bool probe(std::string *why) {
    int scope = 0;
    if (std::ifstream yama("/proc/sys/kernel/yama/ptrace_scope"); yama >> scope && scope >= 2) {
        *why = "Yama's ptrace_scope is " + std::to_string(scope) + ": peers cannot take our descriptors";
        return false;
    }
    UniqueFd probe(::memfd_create("plexus-probe", MFD_CLOEXEC));
    if (probe.get() < 0) {
        *why = std::string("memfd_create: ") + std::strerror(errno);
        return false;
    }
    UniqueFd copy(borrow_fd(::getpid(), probe.get()));
    if (copy.get() < 0) {
        *why = std::string("pidfd_getfd: ") + std::strerror(errno);
        return false;
    }
    return true;
}

}  // namespace

void allow_node_peers() {
    static std::once_flag once;
    std::call_once(once, [] { ::prctl(PR_SET_PTRACER, PR_SET_PTRACER_ANY, 0, 0, 0); });
}

bool fd_passing_available(std::string *why) {
    static std::once_flag once;
    static bool available = false;
    static std::string reason;
    std::call_once(once, [] { available = probe(&reason); });
    if (!available && why) *why = reason;
    return available;
}

int borrow_fd(pid_t pid, int fd) {
#if defined(SYS_pidfd_open) && defined(SYS_pidfd_getfd)
    UniqueFd pidfd(static_cast<int>(::syscall(SYS_pidfd_open, pid, 0)));
    if (pidfd.get() < 0) return -1;
    return static_cast<int>(::syscall(SYS_pidfd_getfd, pidfd.get(), fd, 0));
#else
    (void)pid;
    (void)fd;
    errno = ENOSYS;
    return -1;
#endif
}

}  // namespace plexus::runtime
