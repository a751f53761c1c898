// Unit tests of btl_sm's single copy: process_vm_readv/writev between two processes (a forked
// child's memory), transfers far larger than one call moves, and the probe's answers when the
// peer is gone or holds another value.
#include <gtest/gtest.h>

#include <signal.h>
#include <unistd.h>

#include <cstring>
#include <string>
#include <vector>

#include "components/btl_sm/cma.h"
#include "btl_sm_test_support.h"

using namespace plexus::btl_sm;
using btl_sm_test::SharedMemory;

namespace {

TEST(Cma, AvailableOnTheTestMachine) {
    std::string why;
    EXPECT_TRUE(cma_available(&why)) << why;
}

// The child fills a private buffer, says where it is through shared memory, and waits; the
// parent reads it, overwrites it, and the child checks what it finds.
TEST(Cma, ReadsAndWritesAnotherProcess) {
    constexpr size_t kLen = 24u << 20;  // several times what one call moves at once
    SharedMemory shared(4096);
    auto *addr = reinterpret_cast<volatile uint64_t *>(shared.get());
    auto *phase = reinterpret_cast<volatile uint64_t *>(shared.get() + 64);
    pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
        std::vector<uint8_t> buf(kLen);
        for (size_t i = 0; i < kLen; ++i) buf[i] = static_cast<uint8_t>(i * 7 + i / 4096);
        *addr = reinterpret_cast<uint64_t>(buf.data());
        __atomic_store_n(phase, 1, __ATOMIC_RELEASE);
        while (__atomic_load_n(phase, __ATOMIC_ACQUIRE) != 2) usleep(100);
        for (size_t i = 0; i < kLen; ++i)
            if (buf[i] != static_cast<uint8_t>(~i)) _exit(3);
        _exit(0);
    }
    while (__atomic_load_n(phase, __ATOMIC_ACQUIRE) != 1) usleep(100);
    std::vector<uint8_t> local(kLen);
    ASSERT_EQ(cma_transfer(pid, local.data(), *addr, kLen, false), 0);
    size_t bad = 0;
    for (size_t i = 0; i < kLen; ++i) bad += local[i] != static_cast<uint8_t>(i * 7 + i / 4096);
    EXPECT_EQ(bad, 0u);
    for (size_t i = 0; i < kLen; ++i) local[i] = static_cast<uint8_t>(~i);
    ASSERT_EQ(cma_transfer(pid, local.data(), *addr, kLen, true), 0);
    __atomic_store_n(phase, 2, __ATOMIC_RELEASE);
    EXPECT_TRUE(btl_sm_test::child_succeeded(pid)) << "the child did not find what was written";
}

TEST(Cma, ProbeSaysWhy) {
    static volatile uint64_t word = 0x1234;
    std::string why;
    EXPECT_TRUE(cma_probe(getpid(), reinterpret_cast<uint64_t>(&word), 0x1234, &why)) << why;
    EXPECT_FALSE(cma_probe(getpid(), reinterpret_cast<uint64_t>(&word), 0x9999, &why));
    EXPECT_NE(why.find("different probe value"), std::string::npos) << why;
    pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) _exit(0);
    ASSERT_TRUE(btl_sm_test::child_succeeded(pid));  // reaped: the pid names nobody now
    EXPECT_FALSE(cma_probe(pid, reinterpret_cast<uint64_t>(&word), 0x1234, &why));
    EXPECT_NE(why.find("process_vm_readv of pid " + std::to_string(pid)), std::string::npos) << why;
}

TEST(Cma, UnmappedRemoteAddressIsAnError) {
    char buf[64];
    EXPECT_NE(cma_transfer(getpid(), buf, 8, sizeof buf, false), 0);
}

}  // namespace
