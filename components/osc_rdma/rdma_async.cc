#include "rdma_async.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstddef>
#include <cstring>
#include <map>

#include <plexus/sdk/host.hpp>

namespace plexus::osc_rdma {
namespace {

// The shm services of 1.0 hold segments and single copy; anything older has neither.
bool has_single_copy(const plexus_shm_services_t *s) {
    return s && s->major == PLEXUS_SHM_MAJOR &&
           s->struct_size >= offsetof(plexus_shm_services_t, single_copy) + sizeof s->single_copy &&
           s->single_copy && s->single_copy_available && s->single_copy_probe &&
           s->segment_create && s->segment_attach && s->segment_describe && s->segment_info &&
           s->segment_detach;
}

// Transfers of one run up to this size go through /proc/PID/mem (the kernel copies them through a
// page of its own; longer ones are better served by process_vm_readv/writev, which pins the
// pages and copies once).
constexpr size_t kProcMemMax = 4096;

// One pread/pwrite at offset addr of the target's address space, continued where the kernel
// stopped short; false (errno set) when it moved nothing.
bool proc_mem_move(int fd, void *local, uint64_t addr, size_t len, bool write) {
    auto *p = static_cast<uint8_t *>(local);
    while (len > 0) {
        const ssize_t n = write ? ::pwrite(fd, p, len, off_t(addr)) : ::pread(fd, p, len, off_t(addr));
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return false;
        p += n;
        addr += uint64_t(n);
        len -= size_t(n);
    }
    return true;
}

// One /proc/PID/mem descriptor per peer process, shared by every window that has it as a member
// and closed with the last of them: a program with many windows would otherwise hold size - 1
// descriptors per window. (MPI calls come from one thread at a time: no lock.)
struct ProcMemFile {
    int fd;
    int users;
};

std::map<int32_t, ProcMemFile> &proc_mem_files() {
    static std::map<int32_t, ProcMemFile> files;
    return files;
}

int proc_mem_acquire(int32_t pid) {
    auto &files = proc_mem_files();
    if (auto it = files.find(pid); it != files.end()) {
        ++it->second.users;
        return it->second.fd;
    }
    const std::string path = "/proc/" + std::to_string(pid) + "/mem";
    const int fd = ::open(path.c_str(), O_RDWR | O_CLOEXEC);
    if (fd >= 0) files[pid] = {fd, 1};
    return fd;
}

void proc_mem_release(int32_t pid) {
    auto &files = proc_mem_files();
    auto it = files.find(pid);
    if (it == files.end() || --it->second.users > 0) return;
    ::close(it->second.fd);
    files.erase(it);
}

// What rank 0 sends the others: its descriptor, or that it has none.
struct SegmentCard {
    int32_t ok;
    int32_t reserved;
    plexus_shm_desc_t desc;
};

}  // namespace

bool async_possible(const plexus_host_api_t *host, std::string *why) {
    if (!PLEXUS_HOST_HAS(host, shm) || !has_single_copy(host->shm) ||
        !PLEXUS_HOST_HAS(host, progress_wait)) {
        *why = "the core offers no shared segments with single copy";
        return false;
    }
    plexus_reason_t r{};
    if (host->shm->single_copy_available(&r) != 1) {
        *why = std::string("single copy is not permitted here: ") + r.text;
        return false;
    }
    return true;
}

AsyncPassive::AsyncPassive(const plexus_host_api_t *host, const plexus_osc_services_t *svc,
                           plexus_coll_comm_t *comm, int rank, int size)
    : host_(host), shm_(host->shm), svc_(svc), comm_(comm), rank_(rank), size_(size) {}

AsyncPassive::~AsyncPassive() {
    for (size_t r = 0; r < mem_fds_.size(); ++r)
        if (mem_fds_[r] >= 0) proc_mem_release(pids_[r]);
    if (segment_) shm_->segment_detach(segment_);
}

// Rank 0 makes the segment and describes it; the others attach what it describes. A failure here
// is kept for the agreement that follows (every member takes part in every collective).
int AsyncPassive::make_or_attach(std::string *why) {
    SegmentCard card{};
    plexus_reason_t r{};
    // The header as mapped here (nullptr when the mapping cannot be read).
    auto mapped = [this]() -> AsyncHeader * {
        plexus_shm_segment_info_t info{};
        info.struct_size = sizeof info;
        if (shm_->segment_info(segment_, &info) != PLEXUS_SUCCESS || info.size < sizeof(AsyncHeader))
            return nullptr;
        return static_cast<AsyncHeader *>(info.base);
    };
    if (rank_ == 0) {
        plexus_shm_create_args_t a{};
        a.struct_size = sizeof a;
        a.size = sizeof(AsyncHeader) + sizeof(AsyncSlot) * uint64_t(size_);
        a.expected_peers = uint32_t(size_ - 1);
        a.label = "osc";
        if (shm_->segment_create(&a, &segment_, &r) == PLEXUS_SUCCESS &&
            shm_->segment_describe(segment_, &card.desc) == PLEXUS_SUCCESS) {
            // Written before the bcast: the others check it as soon as they attached (written
            // after it, a member that ran first found no magic under load and the window fell
            // back to messages). Zeroed by the core: the locks start free.
            if ((header_ = mapped()) != nullptr) {
                header_->members = uint32_t(size_);
                header_->magic = kAsyncMagic;
                card.ok = 1;
            } else {
                *why = "the control segment's mapping is not readable";
            }
        } else {
            *why = std::string("rank 0 could not make the control segment: ") + r.text;
        }
    }
    const plexus_coll_services_t *coll = svc_->coll;
    if (int rc = coll->dispatch->bcast(nullptr, &card, int(sizeof card), coll->byte_type, 0, comm_))
        return rc;
    if (!card.ok) {
        if (why->empty()) *why = "rank 0 has no control segment";
        header_ = nullptr;
        return PLEXUS_OSC_SUCCESS;
    }
    if (rank_ == 0) return PLEXUS_OSC_SUCCESS;
    if (shm_->segment_attach(&card.desc, &segment_, &r) != PLEXUS_SUCCESS) {
        segment_ = nullptr;
        *why = std::string("the control segment could not be attached: ") + r.text;
        return PLEXUS_OSC_SUCCESS;
    }
    if ((header_ = mapped()) == nullptr) *why = "the control segment's mapping is not readable";
    return PLEXUS_OSC_SUCCESS;
}

bool AsyncPassive::probe_all(const MemoryTable &members, std::string *why) {
    pids_.assign(size_t(size_), 0);
    for (int r = 0; r < size_; ++r) {
        const PeerMemory &m = members.at(r);
        pids_[size_t(r)] = m.pid;
        if (r == rank_) continue;
        plexus_reason_t reason{};
        if (shm_->single_copy_probe(m.pid, m.probe_addr, m.probe_value, &reason) !=
            PLEXUS_SUCCESS) {
            *why = "single copy to rank " + std::to_string(r) + " failed: " + reason.text;
            return false;
        }
    }
    // The same permission as single copy (ptrace attach); where it is refused the host's single
    // copy serves every transfer.
    mem_fds_.assign(size_t(size_), -1);
    for (int r = 0; r < size_; ++r) {
        if (r == rank_) continue;
        mem_fds_[size_t(r)] = proc_mem_acquire(pids_[size_t(r)]);
    }
    return true;
}

int AsyncPassive::setup(const MemoryTable &members, std::string *why) {
    why->clear();
    if (int rc = make_or_attach(why)) return rc;
    int32_t ok = header_ != nullptr && probe_all(members, why) ? 1 : 0;
    // Rank 0 wrote the header before the bcast; everybody checks what it mapped.
    if (ok && (header_->magic != kAsyncMagic || header_->members != uint32_t(size_))) {
        *why = "the control segment holds something else";
        ok = 0;
    }
    std::vector<int32_t> all(size_t(size_), 0);
    const plexus_coll_services_t *coll = svc_->coll;
    if (int rc = coll->dispatch->allgather(nullptr, &ok, int(sizeof ok), coll->byte_type,
                                           all.data(), int(sizeof ok), coll->byte_type, comm_))
        return rc;
    for (int r = 0; r < size_ && why->empty(); ++r)
        if (!all[size_t(r)])
            *why = "rank " + std::to_string(r) + " cannot use the control segment or single copy";
    ready_ = why->empty();
    return PLEXUS_OSC_SUCCESS;
}

int AsyncPassive::lock(int target, bool exclusive) {
    plexus::sdk::TicketRwLock l(slot(target).lock);
    auto wait = [this](auto &&turn) { return wait_shared(host_, turn); };
    return exclusive ? l.lock_exclusive(wait) : l.lock_shared(wait);
}

void AsyncPassive::unlock(int target, bool exclusive) {
    plexus::sdk::TicketRwLock l(slot(target).lock);
    if (exclusive)
        l.unlock_exclusive();
    else
        l.unlock_shared();
}

int AsyncPassive::lock_accumulate(int target) {
    plexus::sdk::TicketRwLock l(slot(target).acc);
    return l.lock_exclusive([this](auto &&turn) { return wait_shared(host_, turn); });
}

void AsyncPassive::unlock_accumulate(int target) {
    plexus::sdk::TicketRwLock(slot(target).acc).unlock_exclusive();
}

int AsyncPassive::copy(int target, const plexus_shm_iovec_t *local, size_t nlocal,
                       const Run *remote, size_t nremote, bool write, std::string *why) {
    static_assert(sizeof(Run) == sizeof(plexus_shm_remote_iovec_t),
                  "runs are the host's remote lists");
    // A short transfer of one run (a lock epoch's lone put or get, an accumulate's read and
    // write): /proc/PID/mem, opened once, skips the process lookup and permission check that
    // process_vm_readv/writev repeat on every call. A failure falls through to the host's single
    // copy, which then says what went wrong.
    const int fd = size_t(target) < mem_fds_.size() ? mem_fds_[size_t(target)] : -1;
    if (fd >= 0 && nlocal == 1 && nremote == 1 && local[0].len == remote[0].len &&
        local[0].len <= kProcMemMax &&
        proc_mem_move(fd, local[0].base, remote[0].addr, size_t(local[0].len), write))
        return PLEXUS_SUCCESS;
    plexus_reason_t r{};
    const int rc = shm_->single_copy(pids_[size_t(target)], local, nlocal,
                                     reinterpret_cast<const plexus_shm_remote_iovec_t *>(remote),
                                     nremote, write ? 1 : 0, &r);
    if (rc != PLEXUS_SUCCESS) *why = r.text;
    return rc;
}

}  // namespace plexus::osc_rdma
