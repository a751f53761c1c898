// Unit tests of the core's single copy (framework/runtime/shm/single_copy.*): reads and writes
// of another process, scattered lists on both sides, and errors named with their cause.
#include <gtest/gtest.h>

#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstring>
#include <string>
#include <vector>

#include "runtime/shm/single_copy.h"

using namespace plexus::runtime;

namespace {

bool child_succeeded(pid_t pid) {
    int status = 0;
    return ::waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

// A page both processes see after fork.
struct SharedPage {
    SharedPage() { mem = ::mmap(nullptr, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0); }
    ~SharedPage() { ::munmap(mem, 4096); }
    volatile uint64_t *word(int i) const { return static_cast<volatile uint64_t *>(mem) + 8 * i; }
    void *mem;
};

TEST(SingleCopy, AvailableOnTheTestMachine) {
    Status s = single_copy_available();
    EXPECT_TRUE(s.is_ok()) << s.message;
}

// The child fills a private buffer, says where it is through shared memory, and waits; the
// parent reads it, overwrites it, and the child checks what it finds.
TEST(SingleCopy, ReadsAndWritesAnotherProcess) {
    constexpr size_t kLen = 24u << 20;  // several times what one call moves at once
    SharedPage shared;
    volatile uint64_t *addr = shared.word(0), *phase = shared.word(1);
    const pid_t pid = ::fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
        std::vector<uint8_t> buf(kLen);
        for (size_t i = 0; i < kLen; ++i) buf[i] = static_cast<uint8_t>(i * 7 + i / 4096);
        *addr = reinterpret_cast<uint64_t>(buf.data());
        __atomic_store_n(phase, 1, __ATOMIC_RELEASE);
        while (__atomic_load_n(phase, __ATOMIC_ACQUIRE) != 2) ::usleep(100);
        for (size_t i = 0; i < kLen; ++i)
            if (buf[i] != static_cast<uint8_t>(~i)) ::_exit(3);
        ::_exit(0);
    }
    while (__atomic_load_n(phase, __ATOMIC_ACQUIRE) != 1) ::usleep(100);
    std::vector<uint8_t> local(kLen);
    Status s = single_copy(pid, local.data(), *addr, kLen, false);
    ASSERT_TRUE(s.is_ok()) << s.message;
    size_t bad = 0;
    for (size_t i = 0; i < kLen; ++i) bad += local[i] != static_cast<uint8_t>(i * 7 + i / 4096);
    EXPECT_EQ(bad, 0u);
    for (size_t i = 0; i < kLen; ++i) local[i] = static_cast<uint8_t>(~i);
    s = single_copy(pid, local.data(), *addr, kLen, true);
    ASSERT_TRUE(s.is_ok()) << s.message;
    __atomic_store_n(phase, 2, __ATOMIC_RELEASE);
    EXPECT_TRUE(child_succeeded(pid)) << "the child did not find what was written";
}

// Three local pieces gathered from two remote ones of other lengths, and more pieces than one
// kernel call takes.
TEST(SingleCopy, ScatteredListsMeetWhateverTheirCuts) {
    std::string remote_a = "0123456789", remote_b = "abcdefghijklmnopqrstuvwxyz";
    char x[5], y[20], z[11];
    const plexus_shm_iovec_t local[] = {{x, sizeof x}, {y, sizeof y}, {z, sizeof z}};
    const plexus_shm_remote_iovec_t remote[] = {{reinterpret_cast<uint64_t>(remote_a.data()), remote_a.size()},
                                                {reinterpret_cast<uint64_t>(remote_b.data()), remote_b.size()}};
    Status s = single_copy(::getpid(), local, 3, remote, 2, false);
    ASSERT_TRUE(s.is_ok()) << s.message;
    EXPECT_EQ(std::string(x, 5) + std::string(y, 20) + std::string(z, 11), remote_a + remote_b);

    std::vector<uint8_t> src(1000), dst(1000);
    for (size_t i = 0; i < src.size(); ++i) src[i] = static_cast<uint8_t>(i * 13);
    std::vector<plexus_shm_iovec_t> pieces;
    for (size_t i = 0; i < 200; ++i) pieces.push_back({dst.data() + 5 * i, 5});
    const plexus_shm_remote_iovec_t whole{reinterpret_cast<uint64_t>(src.data()), src.size()};
    s = single_copy(::getpid(), pieces.data(), pieces.size(), &whole, 1, false);
    ASSERT_TRUE(s.is_ok()) << s.message;
    EXPECT_EQ(src, dst);
}

TEST(SingleCopy, ListsOfDifferentLengthsAreRefused) {
    char a[8], b[16];
    const plexus_shm_iovec_t local{a, sizeof a};
    const plexus_shm_remote_iovec_t remote{reinterpret_cast<uint64_t>(b), sizeof b};
    Status s = single_copy(::getpid(), &local, 1, &remote, 1, false);
    EXPECT_EQ(s.code, PLEXUS_ERR_BAD_PARAM);
    EXPECT_NE(s.message.find("8 local bytes but 16"), std::string::npos) << s.message;
    EXPECT_EQ(single_copy(::getpid(), nullptr, 1, &remote, 1, false).code, PLEXUS_ERR_BAD_PARAM);
}

TEST(SingleCopy, ProbeSaysWhy) {
    static volatile uint64_t word = 0x1234;
    EXPECT_TRUE(single_copy_probe(::getpid(), reinterpret_cast<uint64_t>(&word), 0x1234).is_ok());
    Status s = single_copy_probe(::getpid(), reinterpret_cast<uint64_t>(&word), 0x9999);
    EXPECT_NE(s.message.find("different probe value"), std::string::npos) << s.message;
    const pid_t pid = ::fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) ::_exit(0);
    ASSERT_TRUE(child_succeeded(pid));  // reaped: the pid names nobody now
    s = single_copy_probe(pid, reinterpret_cast<uint64_t>(&word), 0x1234);
    EXPECT_EQ(s.code, PLEXUS_ERR_UNREACH);
    EXPECT_NE(s.message.find("process_vm_readv of pid " + std::to_string(pid)), std::string::npos) << s.message;
}

TEST(SingleCopy, UnmappedRemoteAddressIsABadParameter) {
    char buf[64];
    Status s = single_copy(::getpid(), buf, 8, sizeof buf, false);
    EXPECT_EQ(s.code, PLEXUS_ERR_BAD_PARAM);
    EXPECT_FALSE(s.message.empty());
}

}  // namespace
