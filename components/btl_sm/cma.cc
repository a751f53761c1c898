#include "cma.h"

#include <sys/uio.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace plexus::btl_sm {

int cma_transfer(pid_t pid, void *local, uint64_t remote, size_t len, bool write) {
    auto *l = static_cast<uint8_t *>(local);
    size_t done = 0;
    while (done < len) {
        // One iovec each way; the kernel may stop short (signals, page boundaries, its per-call
        // limit), so every call continues where the last one ended.
        iovec lv{l + done, len - done};
        iovec rv{reinterpret_cast<void *>(static_cast<uintptr_t>(remote + done)), len - done};
        ssize_t n = write ? ::process_vm_writev(pid, &lv, 1, &rv, 1, 0)
                          : ::process_vm_readv(pid, &lv, 1, &rv, 1, 0);
        if (n < 0) {
            if (errno == EINTR) continue;
            return errno;
        }
        if (n == 0) return EFAULT;  // nothing moved: the range is not mapped over there
        done += static_cast<size_t>(n);
    }
    return 0;
}

namespace {

std::string explain(int err) {
    std::string text = std::strerror(err);
    if (err == EPERM)
        text += " (ptrace rules forbid it: kernel.yama.ptrace_scope, a seccomp filter or a "
                "container without CAP_SYS_PTRACE)";
    if (err == ENOSYS) text += " (the kernel has no CONFIG_CROSS_MEMORY_ATTACH)";
    return text;
}

}  // namespace

bool cma_probe(pid_t pid, uint64_t addr, uint64_t expect, std::string *why) {
    uint64_t got = 0;
    if (int err = cma_transfer(pid, &got, addr, sizeof got, false)) {
        *why = "process_vm_readv of pid " + std::to_string(pid) + ": " + explain(err);
        return false;
    }
    if (got != expect) {
        *why = "process_vm_readv of pid " + std::to_string(pid) + " read a different probe value";
        return false;
    }
    return true;
}

bool cma_available(std::string *why) {
    static volatile uint64_t word = 0x706c65787573ull;
    uint64_t expect = word;
    return cma_probe(::getpid(), reinterpret_cast<uint64_t>(&word), expect, why);
}

}  // namespace plexus::btl_sm
