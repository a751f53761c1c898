#include "runtime/shm/shm_segment.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <new>
#include <utility>

#include "runtime/shm/fd_borrow.h"
#include "runtime/shm/fd_server.h"
#include "runtime/shm/segment_name.h"

namespace plexus::runtime {
namespace {

constexpr uint64_t kHeaderMagic = 0x48534d5358454c50ull;  // "PLEXSMSH"
constexpr uint32_t kHeaderVersion = 1;
// How long a peer waits for the owner's descriptor server (fd_server.h) to answer.
constexpr int kRequestLimitMs = 5000;

// The core's part of every segment. The attach counter has a cache line of its own.
struct SegmentHeader {
    uint64_t magic;
    uint32_t version;
    uint32_t data_offset;
    uint64_t data_size;
    uint64_t tag;
    int32_t owner_pid;
    uint32_t expected_peers;
    char name[PLEXUS_SHM_NAME_MAX];  // what the descriptor must name
    alignas(64) uint32_t attached;
};

size_t page_size() {
    static const size_t page = static_cast<size_t>(::sysconf(_SC_PAGESIZE));
    return page;
}

Status sys_error(int code, const std::string &what, const std::string &name) {
    return Status::error(code, what + " " + name + ": " + std::strerror(errno));
}

const SegmentHeader &header_of(const Mapping &m) { return *reinterpret_cast<const SegmentHeader *>(m.base()); }

uint32_t attached_count(const Mapping &m) {
    auto &h = const_cast<SegmentHeader &>(header_of(m));
    return std::atomic_ref<uint32_t>(h.attached).load(std::memory_order_acquire);
}

// A fresh object: anonymous, else named O_EXCL.
int open_new(const std::string &name, bool anonymous) {
    if (anonymous) return ::memfd_create(name.c_str() + 1, MFD_CLOEXEC);
    return ::shm_open(name.c_str(), O_CREAT | O_EXCL | O_RDWR | O_CLOEXEC, 0600);
}

// What is wrong with a descriptor by itself; empty when nothing.
std::string malformed(const plexus_shm_desc_t &d) {
    if (d.magic != PLEXUS_SHM_DESC_MAGIC) return "not a Plexus segment descriptor (bad magic)";
    if (d.version != PLEXUS_SHM_DESC_VERSION)
        return "descriptor version " + std::to_string(d.version) + ", this core speaks " +
               std::to_string(PLEXUS_SHM_DESC_VERSION);
    if (!std::memchr(d.name, 0, sizeof d.name) || d.name[0] != '/' || std::strchr(d.name + 1, '/'))
        return "descriptor's name is not a terminated \"/name\"";
    if (d.owner_pid <= 0) return "descriptor's owner pid " + std::to_string(d.owner_pid) + " is not a process";
    if (d.size == 0) return "descriptor says 0 bytes";
    if ((d.flags & ~PLEXUS_SHM_DESC_ANONYMOUS) != 0) return "descriptor has unknown flags";
    if ((d.flags & PLEXUS_SHM_DESC_ANONYMOUS) && d.owner_fd < 0) return "anonymous descriptor without a descriptor";
    return {};
}

// The header of what was mapped against the descriptor that led there.
std::string mismatch(const SegmentHeader &h, size_t mapped, const plexus_shm_desc_t &d) {
    if (mapped < sizeof h || h.magic != kHeaderMagic || h.version != kHeaderVersion)
        return "it is not a Plexus segment";
    if (h.tag != d.tag || h.owner_pid != d.owner_pid || std::strncmp(h.name, d.name, sizeof h.name) != 0)
        return "it is another segment than the descriptor's";
    if (h.data_offset < sizeof h || h.data_offset > mapped || h.data_size != mapped - h.data_offset ||
        h.data_size != d.size)
        return "its size differs from the descriptor's (" + std::to_string(d.size) + " bytes)";
    return {};
}

}  // namespace

ShmSegment &ShmSegment::operator=(ShmSegment &&other) noexcept {
    if (this != &other) {
        unlink();
        stop_offering();
        map_ = std::move(other.map_);
        fd_ = std::move(other.fd_);
        name_ = std::move(other.name_);
        data_offset_ = std::exchange(other.data_offset_, 0);
        owner_fd_ = std::exchange(other.owner_fd_, -1);
        owned_ = std::exchange(other.owned_, false);
        anonymous_ = std::exchange(other.anonymous_, false);
        linked_ = std::exchange(other.linked_, false);
        offered_ = std::exchange(other.offered_, false);
    }
    return *this;
}

Status ShmSegment::create(const ShmCreateSpec &spec, ShmSegment *out) {
    if (spec.size == 0) return Status::error(PLEXUS_ERR_BAD_PARAM, "a segment of 0 bytes");
    const size_t page = page_size();
    if (spec.size > (SIZE_MAX >> 1)) return Status::error(PLEXUS_ERR_BAD_PARAM, "segment size too large");
    allow_node_peers();
    std::string name, why;
    uint64_t tag = 0;
    if (!make_segment_name(spec.prefix, spec.label, &name, &tag, &why))
        return Status::error(PLEXUS_ERR_BAD_PARAM, why);
    const bool anonymous = !spec.named && fd_passing_available(nullptr);
    UniqueFd fd(open_new(name, anonymous));
    if (fd.get() < 0) return sys_error(PLEXUS_ERR_OUT_OF_RESOURCE, "cannot create shared memory", name);
    ShmSegment seg;
    seg.name_ = name;
    seg.owned_ = true;
    seg.anonymous_ = anonymous;
    seg.linked_ = !anonymous;  // from here on, seg's destructor unlinks it on any failure
    // The umask may have taken bits off 0600: say it exactly.
    if (::fchmod(fd.get(), 0600) != 0) return sys_error(PLEXUS_ERROR, "cannot chmod 0600", name);
    const size_t data_offset = page;
    const size_t total = data_offset + (spec.size + page - 1) / page * page;
    if (::ftruncate(fd.get(), static_cast<off_t>(total)) != 0)
        return sys_error(PLEXUS_ERR_OUT_OF_RESOURCE, "cannot size (" + std::to_string(total) + " bytes)", name);
    void *addr = ::mmap(nullptr, total, PROT_READ | PROT_WRITE, MAP_SHARED, fd.get(), 0);
    if (addr == MAP_FAILED) return sys_error(PLEXUS_ERR_OUT_OF_RESOURCE, "cannot map", name);
    seg.map_ = Mapping(addr, total);
    seg.data_offset_ = data_offset;
    auto *h = new (addr) SegmentHeader{};
    h->magic = kHeaderMagic;
    h->version = kHeaderVersion;
    h->data_offset = static_cast<uint32_t>(data_offset);
    h->data_size = total - data_offset;
    h->tag = tag;
    h->owner_pid = static_cast<int32_t>(::getpid());
    h->expected_peers = spec.expected_peers;
    std::memcpy(h->name, name.c_str(), name.size() + 1);
    seg.fd_ = std::move(fd);
    // The name goes once the expected peers are in; a process that comes later (a spawned or
    // connected job) gets the descriptor from this process where it cannot borrow it; if this
    // process cannot serve it, such a process is told so when it asks.
    std::string not_served;
    if (!anonymous) seg.offered_ = offer_fd(tag, seg.fd_.get(), &not_served);
    *out = std::move(seg);
    return Status::ok();
}

Status ShmSegment::attach(const plexus_shm_desc_t &desc, ShmSegment *out) {
    if (std::string bad = malformed(desc); !bad.empty()) return Status::error(PLEXUS_ERR_BAD_PARAM, bad);
    const std::string name = desc.name;
    const bool anonymous = desc.flags & PLEXUS_SHM_DESC_ANONYMOUS;
    UniqueFd fd(anonymous ? -1 : ::shm_open(name.c_str(), O_RDWR | O_CLOEXEC, 0));
    const int open_errno = errno;
    const bool by_name = fd.get() >= 0;
    if (!by_name && !anonymous && open_errno != ENOENT) {
        errno = open_errno;
        return sys_error(PLEXUS_ERR_UNREACH, "cannot open shared memory", name);
    }
    if (!by_name) {
        // Anonymous, or unlinked once the owner's peers had attached: borrow its descriptor,
        // else (a named one) ask the owner for it over its socket.
        std::string borrow_why = "the descriptor gives no owner descriptor";
        if (desc.owner_fd >= 0) {
            fd = UniqueFd(borrow_fd(desc.owner_pid, desc.owner_fd));
            if (fd.get() < 0)
                borrow_why = "pidfd_getfd from pid " + std::to_string(desc.owner_pid) + ": " + std::strerror(errno);
        }
        std::string ask_why;
        if (fd.get() < 0 && !anonymous) fd = UniqueFd(request_fd(desc.owner_pid, desc.tag, kRequestLimitMs, &ask_why));
        if (fd.get() < 0)
            return Status::error(PLEXUS_ERR_UNREACH, "cannot reach " + name + ": " + borrow_why +
                                                         (anonymous ? "" : "; the name is gone and " + ask_why));
    }
    struct stat st {};
    if (::fstat(fd.get(), &st) != 0) return sys_error(PLEXUS_ERROR, "cannot stat", name);
    const size_t mapped = static_cast<size_t>(st.st_size);
    if (mapped < page_size() + desc.size)
        return Status::error(PLEXUS_ERR_BAD_PARAM, name + " has " + std::to_string(mapped) +
                                                       " bytes, too few for the descriptor's " +
                                                       std::to_string(desc.size));
    // Populated now: page-table faults belong to setup, not to the first messages.
    void *addr = ::mmap(nullptr, mapped, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, fd.get(), 0);
    if (addr == MAP_FAILED) return sys_error(PLEXUS_ERR_OUT_OF_RESOURCE, "cannot map", name);
    ShmSegment seg;
    seg.map_ = Mapping(addr, mapped);
    if (std::string bad = mismatch(header_of(seg.map_), mapped, desc); !bad.empty())
        return Status::error(PLEXUS_ERR_BAD_PARAM, "descriptor of " + name + " refused: " + bad);
    seg.name_ = name;
    seg.anonymous_ = anonymous;
    seg.linked_ = by_name;
    seg.owner_fd_ = desc.owner_fd;
    seg.data_offset_ = header_of(seg.map_).data_offset;
    auto &h = const_cast<SegmentHeader &>(header_of(seg.map_));
    const uint32_t now = std::atomic_ref<uint32_t>(h.attached).fetch_add(1, std::memory_order_acq_rel) + 1;
    // The owner may be gone (or never look again) by the time its last expected peer is here.
    if (by_name && now == h.expected_peers) {
        ::shm_unlink(name.c_str());
        seg.linked_ = false;
    }
    *out = std::move(seg);
    return Status::ok();
}

void ShmSegment::stop_offering() {
    if (offered_) withdraw_fd(tag());
    offered_ = false;
}

void ShmSegment::unlink() {
    if (owned_ && linked_) ::shm_unlink(name_.c_str());
    if (owned_) linked_ = false;
}

bool ShmSegment::unlink_if_all_attached() {
    if (owned_ && linked_ && attached() >= expected_peers()) unlink();
    return !named();
}

plexus_shm_desc_t ShmSegment::describe() const {
    plexus_shm_desc_t d{};
    d.magic = PLEXUS_SHM_DESC_MAGIC;
    d.version = PLEXUS_SHM_DESC_VERSION;
    d.flags = anonymous_ ? PLEXUS_SHM_DESC_ANONYMOUS : 0;
    d.owner_pid = owner_pid();
    d.owner_fd = owned_ ? fd_.get() : owner_fd_;
    d.size = size();
    d.tag = tag();
    std::memcpy(d.name, name_.c_str(), std::min(name_.size() + 1, sizeof d.name));
    return d;
}

uint32_t ShmSegment::attached() const { return map_ ? attached_count(map_) : 0; }
uint32_t ShmSegment::expected_peers() const { return map_ ? header_of(map_).expected_peers : 0; }
pid_t ShmSegment::owner_pid() const { return map_ ? header_of(map_).owner_pid : 0; }
uint64_t ShmSegment::tag() const { return map_ ? header_of(map_).tag : 0; }

}  // namespace plexus::runtime
