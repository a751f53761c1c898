// Scratch memory that outlives the call: the temporaries of a collective come from a small cache
// of blocks kept per thread, instead of a malloc and free per call. glibc returns freed megabytes
// to the kernel (the heap top is trimmed), and touching them again next call costs a page fault
// per 4 KiB, which is very expensive in a virtual machine: a 1 MB Reduce at 4 ranks spent most of
// its 8 ms in page faults before this cache. Per thread, because the MPI layer calls from one
// thread (MPI_THREAD_FUNNELED) and the unit tests run one rank per thread.
#pragma once

#include <cstddef>

namespace plexus::coll_basic {

struct ScratchBlock {
    char *data = nullptr;  // null when out of memory (or for 0 bytes)
    size_t capacity = 0;
};

// At most this many bytes of blocks stay cached per thread between calls
// (coll_basic_scratch_keep_bytes); a larger block is freed when given back. 0 caches nothing.
void set_scratch_keep(size_t bytes);
size_t scratch_keep();

// A block of at least `bytes` bytes: the smallest cached one that fits, or a new one.
ScratchBlock scratch_acquire(size_t bytes);
// Gives a block back: cached while the thread's cache stays within the limit (smaller cached
// blocks are freed first to make room), freed otherwise.
void scratch_release(ScratchBlock block);
// Frees this thread's cached blocks (the component's close, i.e. MPI_Finalize).
void scratch_trim();
// Bytes and blocks this thread has cached (tests).
size_t scratch_cached_bytes();
int scratch_cached_blocks();

}  // namespace plexus::coll_basic
