#include "runtime/shm/single_copy.h"

#include <sys/uio.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <string>

#include "runtime/shm/fd_borrow.h"

namespace plexus::runtime {
namespace {

// iovecs handed to the kernel per call (its limit is IOV_MAX, 1024).
constexpr size_t kBatch = 64;

std::string explain(int err) {
    std::string text = std::strerror(err);
    if (err == EPERM)
        text += " (ptrace rules forbid it: kernel.yama.ptrace_scope, a seccomp filter or a "
                "container without CAP_SYS_PTRACE)";
    if (err == ENOSYS) text += " (the kernel has no CONFIG_CROSS_MEMORY_ATTACH)";
    return text;
}

int code_of(int err) {
    switch (err) {
        case EPERM:
        case ENOSYS:
            return PLEXUS_ERR_NOT_AVAILABLE;
        case ESRCH:
            return PLEXUS_ERR_UNREACH;
        case EFAULT:
        case EINVAL:
            return PLEXUS_ERR_BAD_PARAM;
        case ENOMEM:
            return PLEXUS_ERR_OUT_OF_RESOURCE;
        default:
            return PLEXUS_ERROR;
    }
}

// A position in a list of ranges: which one, and how far into it.
struct Cursor {
    size_t index = 0;
    uint64_t into = 0;
};

// Fills up to kBatch iovecs from the cursor without moving it; returns how many.
template <class Iov, class AddrOf>
size_t gather(const Iov *list, size_t n, Cursor c, iovec *out, AddrOf addr_of) {
    size_t k = 0;
    for (size_t i = c.index; i < n && k < kBatch; ++i) {
        const uint64_t skip = i == c.index ? c.into : 0;
        if (list[i].len == skip) continue;
        out[k++] = iovec{reinterpret_cast<void *>(addr_of(list[i]) + skip), static_cast<size_t>(list[i].len - skip)};
    }
    return k;
}

template <class Iov>
void advance(const Iov *list, size_t n, Cursor *c, uint64_t bytes) {
    while (c->index < n && bytes > 0) {
        const uint64_t left = list[c->index].len - c->into;
        if (bytes < left) {
            c->into += bytes;
            return;
        }
        bytes -= left;
        ++c->index;
        c->into = 0;
    }
}

template <class Iov>
bool total(const Iov *list, size_t n, uint64_t *sum) {
    *sum = 0;
    for (size_t i = 0; i < n; ++i) {
        if (list[i].len > UINT64_MAX - *sum) return false;
        *sum += list[i].len;
    }
    return true;
}

}  // namespace

Status single_copy(pid_t pid, const plexus_shm_iovec_t *local, size_t nlocal, const plexus_shm_remote_iovec_t *remote,
                   size_t nremote, bool write) {
    uint64_t want = 0, have = 0;
    if ((nlocal && !local) || (nremote && !remote) || !total(local, nlocal, &want) || !total(remote, nremote, &have))
        return Status::error(PLEXUS_ERR_BAD_PARAM, "single copy: a list is missing or its length overflows");
    if (want != have)
        return Status::error(PLEXUS_ERR_BAD_PARAM, "single copy: " + std::to_string(want) + " local bytes but " +
                                                       std::to_string(have) + " remote ones");
    for (size_t i = 0; i < nlocal; ++i)
        if (!local[i].base && local[i].len) return Status::error(PLEXUS_ERR_BAD_PARAM, "single copy: a NULL local range");
    Cursor lc, rc;
    for (uint64_t done = 0; done < want;) {
        // The kernel may stop short (signals, page boundaries, its per-call limit): every call
        // continues where the last one ended.
        iovec lv[kBatch], rv[kBatch];
        const size_t nl = gather(local, nlocal, lc, lv, [](const plexus_shm_iovec_t &v) {
            return reinterpret_cast<uintptr_t>(v.base);
        });
        const size_t nr = gather(remote, nremote, rc, rv, [](const plexus_shm_remote_iovec_t &v) {
            return static_cast<uintptr_t>(v.addr);
        });
        const ssize_t n = write ? ::process_vm_writev(pid, lv, nl, rv, nr, 0) : ::process_vm_readv(pid, lv, nl, rv, nr, 0);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            const int err = n < 0 ? errno : EFAULT;  // nothing moved: not mapped over there
            return Status::error(code_of(err), std::string(write ? "process_vm_writev" : "process_vm_readv") +
                                                   " of pid " + std::to_string(pid) + ": " + explain(err));
        }
        advance(local, nlocal, &lc, static_cast<uint64_t>(n));
        advance(remote, nremote, &rc, static_cast<uint64_t>(n));
        done += static_cast<uint64_t>(n);
    }
    return Status::ok();
}

Status single_copy(pid_t pid, void *local, uint64_t remote, size_t len, bool write) {
    const plexus_shm_iovec_t l{local, len};
    const plexus_shm_remote_iovec_t r{remote, len};
    return single_copy(pid, &l, 1, &r, 1, write);
}

Status single_copy_probe(pid_t pid, uint64_t addr, uint64_t expect) {
    uint64_t got = 0;
    if (Status s = single_copy(pid, &got, addr, sizeof got, false); !s) return s;
    if (got != expect)
        return Status::error(PLEXUS_ERR_BAD_PARAM,
                             "process_vm_readv of pid " + std::to_string(pid) + " read a different probe value");
    return Status::ok();
}

Status single_copy_available() {
    allow_node_peers();
    static volatile uint64_t word = 0x706c65787573ull;
    const uint64_t expect = word;
    return single_copy_probe(::getpid(), reinterpret_cast<uint64_t>(&word), expect);
}

}  // namespace plexus::runtime
