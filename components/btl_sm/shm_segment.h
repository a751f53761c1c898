// Shared-memory segments with RAII: the one this process creates and the peers' ones it attaches
// to.
//
// A segment is anonymous (memfd_create) wherever the kernel lets peers take a duplicate of its
// descriptor with pidfd_getfd (Linux 5.6+, the same ptrace permission as Cross Memory Attach): it
// never has a name in /dev/shm, so no crash, at any point and under any launcher, leaves one
// behind. Elsewhere it is a POSIX object (0600, O_EXCL) whose name goes as soon as every local
// peer has it mapped: the last peer to attach removes it, and the owner at the latest when the
// object goes. The creator keeps its descriptor open either way, for processes that come later
// (a spawned job), which find no name and borrow the descriptor.
#pragma once

#include <sys/types.h>

#include <cstddef>
#include <cstdint>
#include <string>

namespace plexus::btl_sm {

// A file descriptor closed when it goes.
class Fd {
public:
    Fd() = default;
    explicit Fd(int fd) : fd_(fd) {}
    ~Fd() { reset(); }
    Fd(Fd &&other) noexcept : fd_(other.release()) {}
    Fd &operator=(Fd &&other) noexcept;
    Fd(const Fd &) = delete;
    Fd &operator=(const Fd &) = delete;
    int get() const { return fd_; }
    int release() {
        int fd = fd_;
        fd_ = -1;
        return fd;
    }
    void reset();

private:
    int fd_ = -1;
};

// One mapping; unmapped when the object goes.
class Mapping {
public:
    Mapping() = default;
    Mapping(void *addr, size_t len) : addr_(addr), len_(len) {}
    ~Mapping() { reset(); }
    Mapping(Mapping &&other) noexcept { *this = static_cast<Mapping &&>(other); }
    Mapping &operator=(Mapping &&other) noexcept;
    Mapping(const Mapping &) = delete;
    Mapping &operator=(const Mapping &) = delete;

    uint8_t *base() const { return static_cast<uint8_t *>(addr_); }
    size_t size() const { return len_; }
    explicit operator bool() const { return addr_ != nullptr; }
    void reset();

private:
    void *addr_ = nullptr;
    size_t len_ = 0;
};

// Where a peer's segment is: its name, and the owner's pid and descriptor for when the name is
// gone.
struct SegmentAddress {
    std::string name;
    size_t size = 0;  // 0: any
    pid_t owner_pid = 0;
    int owner_fd = -1;
};

// How a segment this process creates is reached by its peers.
enum class Backing {
    anonymous,  // memfd: never a name; peers borrow the owner's descriptor
    named,      // shm_open: a name until the last local peer attached
};

// Whether peers can borrow a descriptor of this process (pidfd_getfd exists and Yama's
// ptrace_scope, if any, is at most 1, which PR_SET_PTRACER_ANY opens to siblings). false and
// *why otherwise.
bool fd_passing_available(std::string *why);

// A shared-memory object; owned named ones are unlinked by unlink() or on destruction.
class ShmSegment {
public:
    ShmSegment() = default;
    ~ShmSegment() { unlink(); }
    ShmSegment(ShmSegment &&other) noexcept { *this = static_cast<ShmSegment &&>(other); }
    ShmSegment &operator=(ShmSegment &&other) noexcept;
    ShmSegment(const ShmSegment &) = delete;
    ShmSegment &operator=(const ShmSegment &) = delete;

    // Creates a segment of size bytes and maps it: named (O_CREAT | O_EXCL, mode 0600 whatever
    // the umask) or anonymous (name only labels it, in /proc/<pid>/maps). false and *why (with
    // the system's words) on failure; nothing is left behind.
    static bool create(const std::string &name, size_t size, Backing backing, ShmSegment *out, std::string *why);
    // Maps a peer's object: by name, else (anonymous, or unlinked) through the owner's descriptor.
    static bool attach(const SegmentAddress &where, ShmSegment *out, std::string *why);

    // Removes the name (owned segments only, once): the mapping stays, nobody new can open it.
    void unlink();
    // Removes the owner's name from an attached segment that was opened by it: for the last
    // local peer the owner waited for, so that the owner's crash leaves nothing either.
    void unlink_for_owner();

    uint8_t *base() const { return map_.base(); }
    size_t size() const { return map_.size(); }
    const std::string &name() const { return name_; }
    bool linked() const { return owned_ && linked_; }
    bool opened_by_name() const { return !owned_ && linked_; }
    int fd() const { return fd_.get(); }  // the creator's descriptor (-1 for attached ones)

private:
    Mapping map_;
    Fd fd_;
    std::string name_;
    bool owned_ = false;
    bool linked_ = false;  // owned: the name is ours to remove; attached: it was opened by name
};

// "/" + prefix + "sm-" + 16 random hex digits (getrandom).
bool random_segment_name(const std::string &prefix, std::string *out, std::string *why);

}  // namespace plexus::btl_sm
