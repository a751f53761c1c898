// A job-private shared segment: the one a process creates and its local peers' that it attaches.
//
// Anonymous (memfd) wherever peers can borrow the creator's descriptor (fd_borrow.h): it never
// has a name, so no crash at any point and under any launcher leaves one behind. Elsewhere a
// POSIX object (0600, O_EXCL) whose name goes as soon as every expected local peer has it mapped:
// the last of them removes it (its count is in the segment's header), and the owner once it sees
// them all. The creator keeps its descriptor either way, for processes that come later (a spawned
// job), which find no name and borrow it (pidfd_getfd), or else ask for it over the creator's
// socket (fd_server.h).
//
// The object starts with a header page of the core's (magic, owner, tag, the attach counter);
// the usable bytes follow, page-aligned.
#pragma once

#include <sys/types.h>

#include <cstddef>
#include <cstdint>
#include <string>

#include <plexus/shm.h>

#include "runtime/shm/mapping.h"
#include "runtime/unique_fd.h"
#include "runtime/status.h"

namespace plexus::runtime {

struct ShmCreateSpec {
    std::string prefix;  // the job's shm prefix
    std::string label;   // [a-z0-9_]{1,16}
    size_t size = 0;     // usable bytes
    uint32_t expected_peers = 0;
    bool named = false;  // a name even where fd passing works
};

class ShmSegment {
public:
    ShmSegment() = default;
    ~ShmSegment() {
        unlink();
        stop_offering();
    }
    ShmSegment(ShmSegment &&other) noexcept { *this = static_cast<ShmSegment &&>(other); }
    ShmSegment &operator=(ShmSegment &&other) noexcept;
    ShmSegment(const ShmSegment &) = delete;
    ShmSegment &operator=(const ShmSegment &) = delete;

    // Creates and maps a zeroed segment; nothing is left behind on failure.
    static Status create(const ShmCreateSpec &spec, ShmSegment *out);
    // Maps a peer's segment from its descriptor, which must match the segment's header.
    static Status attach(const plexus_shm_desc_t &desc, ShmSegment *out);

    // Owned segments: removes the name (once); the mapping stays, nobody new can open it.
    void unlink();
    // Owned segments: removes the name once every expected peer attached. true: no name left.
    bool unlink_if_all_attached();

    plexus_shm_desc_t describe() const;
    uint8_t *base() const { return map_.base() + data_offset_; }
    size_t size() const { return map_.size() - data_offset_; }
    const std::string &name() const { return name_; }
    bool owned() const { return owned_; }
    bool anonymous() const { return anonymous_; }
    bool named() const { return owned_ ? linked_ : !anonymous_ && linked_; }
    uint32_t attached() const;
    uint32_t expected_peers() const;
    pid_t owner_pid() const;
    uint64_t tag() const;

private:
    Mapping map_;
    UniqueFd fd_;  // the creator's; closed at once by attachers
    std::string name_;
    size_t data_offset_ = 0;
    int owner_fd_ = -1;  // attached: the owner's descriptor number, for describe()
    bool owned_ = false;
    bool anonymous_ = false;
    bool linked_ = false;  // owned: the name is ours to remove; attached: it was opened by name
    bool offered_ = false;  // owned, named: its descriptor is served to later peers (fd_server.h)

    void stop_offering();
};

}  // namespace plexus::runtime
