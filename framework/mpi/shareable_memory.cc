// See shareable_memory.h.
#include "mpi/shareable_memory.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/sysinfo.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "runtime/shm/fd_borrow.h"
#include "runtime/shm/mapping.h"
#include "runtime/unique_fd.h"

namespace plexus::mpi {

// The core's descriptor and mapping types close and unmap it when it goes.
struct ShareableMemory::Segment {
    runtime::UniqueFd file;  // the memfd
    runtime::Mapping map;    // all of its span
    int fd() const { return file.get(); }
    char *base() const { return reinterpret_cast<char *>(map.base()); }
    size_t span() const { return map.size(); }
    std::map<size_t, size_t> free;  // offset -> length, never adjacent (merged on release)
    size_t high_water = 0;           // no page above it was ever backed
    size_t freed_backed = 0;         // about how much free memory is backed (freed, not reused)
};

namespace {

size_t page_size() {
    static const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
    return page;
}

size_t round_down(size_t x, size_t to) { return x / to * to; }
size_t round_up(size_t x, size_t to) { return round_down(x + to - 1, to); }

// What a single allocation can never exceed: the machine's memory and swap (tmpfs pages can go
// to swap). A larger request would only end in the OOM killer, as malloc refuses it too.
size_t machine_memory() {
    static const size_t total = [] {
        struct sysinfo si;
        if (sysinfo(&si) != 0) return SIZE_MAX;
        return (static_cast<size_t>(si.totalram) + si.totalswap) * si.mem_unit;
    }();
    return total;
}

std::string errno_text(const char *what, int err) { return std::string(what) + ": " + std::strerror(err); }

// Whether every page of the file range is in memory already (kept from an earlier allocation):
// one mincore call, where fallocate would look each page up in turn.
bool all_backed(const char *base, off_t lo, off_t len) {
    const size_t pages = static_cast<size_t>(len) / page_size();
    std::vector<unsigned char> in_core(pages);
    if (mincore(const_cast<char *>(base) + lo, static_cast<size_t>(len), in_core.data()) != 0) return false;
    return std::all_of(in_core.begin(), in_core.end(), [](unsigned char c) { return c & 1; });
}

}  // namespace

ShareableMemory::ShareableMemory(size_t segment_span, size_t keep_backed)
    : span_(round_up(segment_span, page_size())), keep_backed_(keep_backed) {}

ShareableMemory::~ShareableMemory() = default;

ShareableMemory::Segment *ShareableMemory::add_segment(size_t at_least, std::string *why) {
    auto s = std::make_unique<Segment>();
    s->file = runtime::UniqueFd(memfd_create("plexus-alloc-mem", MFD_CLOEXEC));
    if (s->fd() < 0) {
        *why = errno_text("memfd_create", errno);
        return nullptr;
    }
    // Peers map these pages by borrowing the descriptor (shm peer_map), which Yama's
    // ptrace_scope=1 refuses to siblings unless this process allows it.
    runtime::allow_node_peers();
    // A process limited in address space (ulimit -v) may not map the full span: then exactly
    // what this request needs.
    for (size_t span : {std::max(span_, at_least), at_least}) {
        if (ftruncate(s->fd(), static_cast<off_t>(span)) != 0) {
            *why = errno_text("ftruncate of the memfd", errno);
            continue;
        }
        void *p = mmap(nullptr, span, PROT_READ | PROT_WRITE, MAP_SHARED, s->fd(), 0);
        if (p == MAP_FAILED) {
            *why = errno_text("mmap of the memfd", errno);
            continue;
        }
        s->map = runtime::Mapping(p, span);
        s->free.emplace(0, span);
        segments_.push_back(std::move(s));
        return segments_.back().get();
    }
    return nullptr;
}

bool ShareableMemory::carve(Segment &s, size_t bytes, size_t alignment, size_t *offset) {
    const auto base = reinterpret_cast<uintptr_t>(s.base());
    for (auto it = s.free.begin(); it != s.free.end(); ++it) {
        const size_t start = it->first, end = it->first + it->second;
        const size_t at = round_up(base + start, alignment) - base;
        if (at > end || end - at < bytes) continue;
        s.free.erase(it);
        if (at > start) s.free.emplace(start, at - start);
        if (at + bytes < end) s.free.emplace(at + bytes, end - at - bytes);
        *offset = at;
        s.high_water = std::max(s.high_water, at + bytes);
        s.freed_backed -= std::min(s.freed_backed, bytes);  // most likely reuses freed pages
        return true;
    }
    return false;
}

// Returns [offset, offset + bytes) to the free ranges; past keep_backed_ bytes freed, the pages
// now wholly free go back to the system.
void ShareableMemory::give_back(Segment &s, size_t offset, size_t bytes) {
    size_t start = offset, end = offset + bytes;
    auto next = s.free.lower_bound(offset);
    if (next != s.free.end() && next->first == end) {
        end += next->second;
        next = s.free.erase(next);
    }
    if (next != s.free.begin()) {
        auto prev = std::prev(next);
        if (prev->first + prev->second == start) {
            start = prev->first;
            s.free.erase(prev);
        }
    }
    s.free.emplace(start, end - start);
    s.freed_backed += bytes;
    if (s.freed_backed > keep_backed_) release_free_pages(s);
}

// Punches out every page of s that no allocation touches (a page shared with a live neighbour
// keeps its memory), up to the highest page ever backed.
void ShareableMemory::release_free_pages(Segment &s) {
    const size_t page = page_size(), top = round_up(s.high_water, page);
    for (const auto &[offset, length] : s.free) {
        const size_t lo = round_up(offset, page), hi = std::min(round_down(offset + length, page), top);
        if (lo >= top) break;
        if (hi > lo)
            fallocate(s.fd(), FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, static_cast<off_t>(lo),
                      static_cast<off_t>(hi - lo));
    }
    s.freed_backed = 0;
}

// Backs the pages of [offset, offset + bytes); when memory is short, the freed pages every
// segment keeps go first and it tries again.
bool ShareableMemory::back(Segment &s, size_t offset, size_t bytes, std::string *why) {
    const size_t page = page_size();
    const off_t lo = static_cast<off_t>(round_down(offset, page));
    const off_t len = static_cast<off_t>(round_up(offset + bytes, page)) - lo;
    if (all_backed(s.base(), lo, len) || fallocate(s.fd(), 0, lo, len) == 0) return true;
    for (auto &other : segments_) release_free_pages(*other);
    if (fallocate(s.fd(), 0, lo, len) == 0) return true;
    *why = errno_text("backing the memory (fallocate)", errno);
    return false;
}

// A segment with nothing in it goes, unless it is the last one (the next allocation would only
// make it again).
void ShareableMemory::drop_if_empty(Segment &s) {
    if (segments_.size() < 2 || s.free.size() != 1 || s.free.begin()->second != s.span()) return;
    segments_.erase(std::find_if(segments_.begin(), segments_.end(), [&](auto &u) { return u.get() == &s; }));
}

void *ShareableMemory::allocate(size_t size, size_t alignment, std::string *why) {
    const size_t limit = machine_memory();
    if (size > limit) {
        *why = "more than this machine's memory and swap (" + std::to_string(limit) + " bytes)";
        return nullptr;
    }
    const size_t page = page_size();
    const size_t bytes = round_up(std::max<size_t>(size, 1), kGrain);
    alignment = std::max({alignment, kGrain, bytes >= page ? page : size_t{1}});

    std::lock_guard guard(lock_);
    Segment *seg = nullptr;
    size_t offset = 0;
    for (auto &s : segments_)
        if (carve(*s, bytes, alignment, &offset)) {
            seg = s.get();
            break;
        }
    if (!seg) {
        seg = add_segment(round_up(bytes + alignment, page), why);
        if (!seg) return nullptr;
        carve(*seg, bytes, alignment, &offset);  // a fresh segment of at least bytes + alignment
    }
    // Back the pages now: out of memory is an error here rather than SIGBUS at first touch.
    if (!back(*seg, offset, bytes, why)) {
        give_back(*seg, offset, bytes);
        drop_if_empty(*seg);
        return nullptr;
    }
    char *p = seg->base() + offset;
    blocks_.emplace(reinterpret_cast<uintptr_t>(p), Block{seg, offset, size, bytes});
    return p;
}

ShareableMemory::Release ShareableMemory::release(void *p, std::string *why) {
    const auto addr = reinterpret_cast<uintptr_t>(p);
    std::lock_guard guard(lock_);
    auto it = blocks_.find(addr);
    if (it == blocks_.end()) {
        auto after = blocks_.upper_bound(addr);
        if (after != blocks_.begin()) {
            const auto &[base, b] = *std::prev(after);
            if (addr - base < b.taken) {
                *why = "it lies " + std::to_string(addr - base) + " bytes into an allocation of " +
                       std::to_string(b.size) + " bytes: pass the address MPI_Alloc_mem returned";
                return Release::NotAllocated;
            }
        }
        *why = "it was not returned by MPI_Alloc_mem, or was freed already";
        return Release::NotAllocated;
    }
    const Block b = it->second;
    blocks_.erase(it);
    give_back(*b.segment, b.offset, b.taken);
    drop_if_empty(*b.segment);
    return Release::Freed;
}

std::optional<SharedRange> ShareableMemory::find(const void *p) const {
    const auto addr = reinterpret_cast<uintptr_t>(p);
    std::lock_guard guard(lock_);
    auto after = blocks_.upper_bound(addr);
    if (after == blocks_.begin()) return std::nullopt;
    const auto &[base, b] = *std::prev(after);
    const size_t into = addr - base;
    if (into > b.size || (into == b.size && into != 0)) return std::nullopt;
    return SharedRange{b.segment->fd(), b.offset + into, b.size - into};
}

size_t ShareableMemory::live_allocations() const {
    std::lock_guard guard(lock_);
    return blocks_.size();
}

size_t ShareableMemory::segment_count() const {
    std::lock_guard guard(lock_);
    return segments_.size();
}

ShareableMemory &shareable_memory() {
    // Never destroyed: memory handed out stays valid through exit handlers that may still use it.
    static ShareableMemory *instance = new ShareableMemory;
    return *instance;
}

}  // namespace plexus::mpi
