#include "shm_segment.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <utility>

namespace plexus::btl_sm {
namespace {

std::string sys_error(const std::string &what, const std::string &name) {
    return what + " " + name + ": " + std::strerror(errno);
}

// A duplicate of descriptor fd of process pid (Linux 5.6+; ptrace permission over pid).
int take_peer_fd(pid_t pid, int fd) {
#if defined(SYS_pidfd_open) && defined(SYS_pidfd_getfd)
    Fd pidfd(static_cast<int>(::syscall(SYS_pidfd_open, pid, 0)));
    if (pidfd.get() < 0) return -1;
    return static_cast<int>(::syscall(SYS_pidfd_getfd, pidfd.get(), fd, 0));
#else
    (void)pid;
    (void)fd;
    errno = ENOSYS;
    return -1;
#endif
}

// The descriptor of a fresh named or anonymous object; *made_name true when a name now exists.
int open_new(const std::string &name, Backing backing, bool *made_name) {
    *made_name = false;
    if (backing == Backing::anonymous) return ::memfd_create(name.c_str() + (name[0] == '/'), MFD_CLOEXEC);
    const int fd = ::shm_open(name.c_str(), O_CREAT | O_EXCL | O_RDWR | O_CLOEXEC, 0600);
    *made_name = fd >= 0;
    return fd;
}

}  // namespace

bool fd_passing_available(std::string *why) {
    int scope = 0;
    if (std::ifstream yama("/proc/sys/kernel/yama/ptrace_scope"); yama >> scope && scope >= 2) {
        *why = "Yama's ptrace_scope is " + std::to_string(scope) + ": peers cannot take our descriptors";
        return false;
    }
    Fd probe(::memfd_create("plexus-probe", MFD_CLOEXEC));
    if (probe.get() < 0) {
        *why = std::string("memfd_create: ") + std::strerror(errno);
        return false;
    }
    Fd copy(take_peer_fd(::getpid(), probe.get()));
    if (copy.get() < 0) {
        *why = std::string("pidfd_getfd: ") + std::strerror(errno);
        return false;
    }
    return true;
}

Fd &Fd::operator=(Fd &&other) noexcept {
    if (this != &other) {
        reset();
        fd_ = other.release();
    }
    return *this;
}

void Fd::reset() {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
}

Mapping &Mapping::operator=(Mapping &&other) noexcept {
    if (this != &other) {
        reset();
        addr_ = std::exchange(other.addr_, nullptr);
        len_ = std::exchange(other.len_, 0);
    }
    return *this;
}

void Mapping::reset() {
    if (addr_) ::munmap(addr_, len_);
    addr_ = nullptr;
    len_ = 0;
}

ShmSegment &ShmSegment::operator=(ShmSegment &&other) noexcept {
    if (this != &other) {
        unlink();
        map_ = std::move(other.map_);
        fd_ = std::move(other.fd_);
        name_ = std::move(other.name_);
        owned_ = std::exchange(other.owned_, false);
        linked_ = std::exchange(other.linked_, false);
    }
    return *this;
}

bool ShmSegment::create(const std::string &name, size_t size, Backing backing, ShmSegment *out, std::string *why) {
    bool named = false;
    Fd fd(open_new(name, backing, &named));
    if (fd.get() < 0) {
        *why = sys_error("cannot create shared memory", name);
        return false;
    }
    ShmSegment seg;
    seg.name_ = name;
    seg.owned_ = true;
    seg.linked_ = named;  // from here on, seg's destructor unlinks it on any failure
    // The umask may have taken bits off 0600: say it exactly.
    if (::fchmod(fd.get(), 0600) != 0) {
        *why = sys_error("cannot chmod 0600", name);
        return false;
    }
    if (::ftruncate(fd.get(), static_cast<off_t>(size)) != 0) {
        *why = sys_error("cannot size (" + std::to_string(size) + " bytes)", name);
        return false;
    }
    void *addr = ::mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd.get(), 0);
    if (addr == MAP_FAILED) {
        *why = sys_error("cannot map", name);
        return false;
    }
    seg.map_ = Mapping(addr, size);
    seg.fd_ = std::move(fd);
    *out = std::move(seg);
    return true;
}

bool ShmSegment::attach(const SegmentAddress &where, ShmSegment *out, std::string *why) {
    const std::string &name = where.name;
    Fd fd(::shm_open(name.c_str(), O_RDWR | O_CLOEXEC, 0));
    const bool by_name = fd.get() >= 0;
    if (fd.get() < 0 && errno == ENOENT && where.owner_fd >= 0) {
        // Anonymous, or unlinked once the owner's job had attached: borrow the owner's descriptor.
        fd = Fd(take_peer_fd(where.owner_pid, where.owner_fd));
        if (fd.get() < 0) {
            *why = sys_error("is unlinked and pidfd_getfd from pid " + std::to_string(where.owner_pid) + " failed for",
                             name);
            return false;
        }
    } else if (fd.get() < 0) {
        *why = sys_error("cannot open shared memory", name);
        return false;
    }
    struct stat st {};
    if (::fstat(fd.get(), &st) != 0) {
        *why = sys_error("cannot stat", name);
        return false;
    }
    const size_t size = static_cast<size_t>(st.st_size);
    if (where.size != 0 && size != where.size) {
        *why = name + " has " + std::to_string(size) + " bytes, its card says " + std::to_string(where.size);
        return false;
    }
    // Populated now: page-table faults belong to setup, not to the first messages.
    void *addr = ::mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, fd.get(), 0);
    if (addr == MAP_FAILED) {
        *why = sys_error("cannot map", name);
        return false;
    }
    ShmSegment seg;
    seg.map_ = Mapping(addr, size);
    seg.name_ = name;
    seg.linked_ = by_name;
    *out = std::move(seg);
    return true;
}

void ShmSegment::unlink() {
    if (owned_ && linked_) ::shm_unlink(name_.c_str());
    if (owned_) linked_ = false;
}

void ShmSegment::unlink_for_owner() {
    if (!owned_ && linked_) ::shm_unlink(name_.c_str());
    linked_ = false;
}

bool random_segment_name(const std::string &prefix, std::string *out, std::string *why) {
    unsigned char bytes[8];
    size_t got = 0;
    while (got < sizeof bytes) {
        ssize_t n = ::getrandom(bytes + got, sizeof bytes - got, 0);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            *why = std::string("getrandom failed: ") + std::strerror(errno);
            return false;
        }
        got += static_cast<size_t>(n);
    }
    char hex[2 * sizeof bytes + 1];
    for (size_t i = 0; i < sizeof bytes; ++i) std::snprintf(hex + 2 * i, 3, "%02x", bytes[i]);
    *out = "/" + prefix + "sm-" + hex;
    return true;
}

}  // namespace plexus::btl_sm
