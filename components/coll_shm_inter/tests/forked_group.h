// Runs one function in n forked processes that share an anonymous mapping (the segment of a
// node group, and room for test data), the way the processes of a node share a coll_shm_inter
// segment; fails the test when any process fails, crashes or is still running after 60 s.
#pragma once

#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace shm_test {

class SharedMap {
public:
    explicit SharedMap(size_t bytes) : bytes_(bytes) {
        void *p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
        base_ = p == MAP_FAILED ? nullptr : static_cast<uint8_t *>(p);
    }
    ~SharedMap() {
        if (base_) munmap(base_, bytes_);
    }
    SharedMap(const SharedMap &) = delete;
    SharedMap &operator=(const SharedMap &) = delete;
    uint8_t *base() const { return base_; }

private:
    size_t bytes_;
    uint8_t *base_;
};

// body(rank) returns the process's exit status: 0 when every check passed. Each child runs
// with a 60 s alarm, so a process stuck in a wait dies and fails the test instead of hanging.
inline void run_forked(int n, const std::function<int(int)> &body) {
    std::vector<pid_t> kids;
    for (int r = 0; r < n; ++r) {
        const pid_t pid = fork();
        ASSERT_GE(pid, 0) << "fork";
        if (pid == 0) {
            alarm(60);
            const int status = body(r);
            fflush(stdout);
            fflush(stderr);
            _exit(status);
        }
        kids.push_back(pid);
    }
    for (int r = 0; r < n; ++r) {
        int status = 0;
        ASSERT_EQ(waitpid(kids[static_cast<size_t>(r)], &status, 0), kids[static_cast<size_t>(r)]);
        EXPECT_TRUE(WIFEXITED(status)) << "process " << r << " of " << n << " died of signal "
                                       << (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
        if (WIFEXITED(status)) {
            EXPECT_EQ(WEXITSTATUS(status), 0) << "process " << r << " of " << n;
        }
    }
}

}  // namespace shm_test
