// Memory that MPI_Alloc_mem hands out: carved from memfd-backed shared mappings, so that a peer
// on the node can map the same pages (the owner passes the fd, e.g. by pidfd_getfd) or reach
// them by Cross Memory Attach, which one-sided windows will use. memfd_create leaves no name
// in /dev/shm, so a crash at any point leaves nothing behind.
//
// Each segment is one memfd, sized and mapped once over a large virtual span; the file is sparse
// and only the pages in use are backed (fallocate at allocation, so that running out of memory
// is an error there and not a SIGBUS later). Freed pages stay backed for the next allocation
// until more than keep_backed bytes were freed; then every wholly free page of the segment is
// punched out (a page a live neighbour uses stays). A registry (base -> segment, offset, size) lets Free_mem refuse pointers that did not
// come from allocate and lets find() map any address inside an allocation to (fd, offset).
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace plexus::mpi {

// Where an address lies in allocated memory: the memfd backing it, the address's offset in that
// file, and how many bytes of its allocation start there.
struct SharedRange {
    int fd = -1;
    uint64_t offset = 0;
    size_t bytes = 0;
};

class ShareableMemory {
public:
    // 64 GiB of address space per segment (no memory until used); a larger request gets a
    // segment of its own size.
    static constexpr size_t kDefaultSpan = size_t{64} << 30;
    // The finest unit handed out; also the smallest alignment.
    static constexpr size_t kGrain = 64;

    // Freed memory kept backed per segment before it goes back to the system: an allocate/free
    // loop then costs no page clearing and no page faults.
    static constexpr size_t kKeepBacked = size_t{16} << 20;

    explicit ShareableMemory(size_t segment_span = kDefaultSpan, size_t keep_backed = kKeepBacked);
    ~ShareableMemory();
    ShareableMemory(const ShareableMemory &) = delete;
    ShareableMemory &operator=(const ShareableMemory &) = delete;

    // size bytes (0 gives a unique pointer) aligned to at least alignment (a power of two; page
    // size for requests of a page or more). nullptr with *why set when it cannot.
    void *allocate(size_t size, size_t alignment, std::string *why);

    enum class Release { Freed, NotAllocated };
    // Frees an allocation by its base address. NotAllocated (with *why saying whether p lies
    // inside an allocation or in none, e.g. freed already) leaves everything as it was.
    Release release(void *p, std::string *why);

    // The range of any address inside a live allocation; nothing for other addresses.
    std::optional<SharedRange> find(const void *p) const;

    size_t live_allocations() const;
    size_t segment_count() const;

private:
    struct Segment;
    struct Block {
        Segment *segment;
        size_t offset;  // in the segment's file
        size_t size;    // as asked
        size_t taken;   // as carved (size rounded up to the grain, at least one grain)
    };

    bool carve(Segment &s, size_t bytes, size_t alignment, size_t *offset);
    Segment *add_segment(size_t at_least, std::string *why);
    void give_back(Segment &s, size_t offset, size_t bytes);
    void release_free_pages(Segment &s);
    bool back(Segment &s, size_t offset, size_t bytes, std::string *why);
    void drop_if_empty(Segment &s);

    mutable std::mutex lock_;  // MPI_THREAD_MULTIPLE programs may allocate from any thread
    size_t span_;
    size_t keep_backed_;
    std::vector<std::unique_ptr<Segment>> segments_;
    std::map<uintptr_t, Block> blocks_;
};

// The process's instance, behind MPI_Alloc_mem and MPI_Free_mem.
ShareableMemory &shareable_memory();

}  // namespace plexus::mpi
