// Shared pieces of the btl_sm unit tests: anonymous shared memory that forked children inherit,
// and waiting for those children.
#pragma once

#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstddef>
#include <stdexcept>

namespace btl_sm_test {

// MAP_SHARED | MAP_ANONYMOUS: the same pages in parent and forked children, like a segment.
class SharedMemory {
public:
    explicit SharedMemory(size_t bytes) : bytes_(bytes) {
        addr_ = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
        if (addr_ == MAP_FAILED) throw std::runtime_error("mmap failed");
    }
    ~SharedMemory() { ::munmap(addr_, bytes_); }
    SharedMemory(const SharedMemory &) = delete;
    SharedMemory &operator=(const SharedMemory &) = delete;
    unsigned char *get() const { return static_cast<unsigned char *>(addr_); }

private:
    void *addr_;
    size_t bytes_;
};

// Waits for pid; true when it exited with status 0.
inline bool child_succeeded(pid_t pid) {
    int status = 0;
    if (::waitpid(pid, &status, 0) != pid) return false;
    return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

}  // namespace btl_sm_test
