// Unit tests of shm services 1.1's peer_map / peer_unmap (plexus/shm.h), called as a component
// calls them: a range of another process's memfd (MPI_Alloc_mem's kind of memory, which osc_sm
// windows map) is mapped read-write and shared, at any offset; ranges outside the file, bad
// descriptors and bad arguments are refused with a reason, never a crash or a SIGBUS later.
#include <gtest/gtest.h>

#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstring>

#include <plexus/shm.h>

#include "mca/mca_core.h"
#include "plugin_paths.h"

using namespace plexus;

namespace {

class ShmPeerMap : public ::testing::Test {
protected:
    void SetUp() override {
        unsetenv("PMIX_NAMESPACE");
        mca::CoreOptions o;
        o.search_default_folder = false;
        o.sources.environment = {{"PLEXUS_MCA_mca_base_component_path", test::good_plugin_dir()}};
        core = std::make_unique<mca::McaCore>(std::move(o));
        ASSERT_TRUE(core->init());
        shm = core->host_api()->shm;
        ASSERT_NE(shm, nullptr);
        plexus_reason_t why{};
        if (shm->fd_passing_available(&why) != 1) GTEST_SKIP() << why.text;
    }
    std::unique_ptr<mca::McaCore> core;
    const plexus_shm_services_t *shm = nullptr;
};

// A memfd of `bytes` with its own mapping, closed when it goes.
struct Memfd {
    explicit Memfd(size_t n) : bytes(n) {
        fd = memfd_create("peer-map-test", MFD_CLOEXEC);
        if (fd >= 0 && ftruncate(fd, off_t(n)) == 0)
            base = static_cast<char *>(mmap(nullptr, n, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0));
    }
    ~Memfd() {
        if (base && base != MAP_FAILED) munmap(base, bytes);
        if (fd >= 0) close(fd);
    }
    bool ok() const { return fd >= 0 && base && base != MAP_FAILED; }
    size_t bytes;
    int fd = -1;
    char *base = nullptr;
};

}  // namespace

TEST_F(ShmPeerMap, TheTableHasIt) {
    EXPECT_GE(shm->minor, 1);
    EXPECT_GE(shm->struct_size, offsetof(plexus_shm_services_t, peer_unmap) + sizeof(void *));
    EXPECT_NE(shm->peer_map, nullptr);
    EXPECT_NE(shm->peer_unmap, nullptr);
}

// Both mappings see one set of pages, at an offset that is not a page boundary.
TEST_F(ShmPeerMap, ARangeAtAnyOffsetIsTheSameMemory) {
    const size_t page = size_t(sysconf(_SC_PAGESIZE));
    Memfd f(4 * page);
    ASSERT_TRUE(f.ok());
    const uint64_t offset = page + 100, len = 2 * page;
    plexus_shm_peer_map_t *m = nullptr;
    void *at = nullptr;
    plexus_reason_t why{};
    ASSERT_EQ(shm->peer_map(int32_t(getpid()), f.fd, offset, len, &m, &at, &why), PLEXUS_SUCCESS) << why.text;
    ASSERT_NE(at, nullptr);
    EXPECT_EQ(reinterpret_cast<uintptr_t>(at) % page, 100u);
    std::memcpy(f.base + offset, "written by the owner", 20);
    EXPECT_EQ(std::memcmp(at, "written by the owner", 20), 0);
    std::memcpy(static_cast<char *>(at) + len - 4, "peer", 4);
    EXPECT_EQ(std::memcmp(f.base + offset + len - 4, "peer", 4), 0);
    EXPECT_EQ(shm->peer_unmap(m), PLEXUS_SUCCESS);
    EXPECT_EQ(std::memcmp(f.base + offset, "written by the owner", 20), 0);  // the owner's pages stay
}

// Another process's memfd: the child owns it and checks what the parent wrote through its mapping.
TEST_F(ShmPeerMap, AnotherProcesssMemfd) {
    int to_parent[2], to_child[2];
    ASSERT_EQ(pipe(to_parent), 0);
    ASSERT_EQ(pipe(to_child), 0);
    const pid_t child = fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
        Memfd f(8192);
        if (!f.ok()) _exit(2);
        std::memcpy(f.base + 5000, "child", 5);
        int fd = f.fd;
        char go = 0;
        if (write(to_parent[1], &fd, sizeof fd) != sizeof fd || read(to_child[0], &go, 1) != 1) _exit(3);
        _exit(std::memcmp(f.base + 5000, "PARENT", 6) == 0 ? 0 : 4);
    }
    int fd = -1;
    ASSERT_EQ(read(to_parent[0], &fd, sizeof fd), ssize_t(sizeof fd));
    plexus_shm_peer_map_t *m = nullptr;
    void *at = nullptr;
    plexus_reason_t why{};
    const int rc = shm->peer_map(int32_t(child), fd, 5000, 6, &m, &at, &why);
    if (rc == PLEXUS_SUCCESS) {
        EXPECT_EQ(std::memcmp(at, "child", 5), 0);
        std::memcpy(at, "PARENT", 6);
        shm->peer_unmap(m);
    }
    const char go = 1;
    EXPECT_EQ(write(to_child[1], &go, 1), 1);
    int status = 0;
    ASSERT_EQ(waitpid(child, &status, 0), child);
    ASSERT_EQ(rc, PLEXUS_SUCCESS) << why.text;
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "the child did not see the parent's write";
    for (int p : {to_parent[0], to_parent[1], to_child[0], to_child[1]}) close(p);
}

TEST_F(ShmPeerMap, WhatCannotBeMappedIsRefusedWithAReason) {
    Memfd f(4096);
    ASSERT_TRUE(f.ok());
    plexus_shm_peer_map_t *m = nullptr;
    void *at = nullptr;
    plexus_reason_t why{};
    EXPECT_EQ(shm->peer_map(int32_t(getpid()), f.fd, 4000, 200, &m, &at, &why), PLEXUS_ERR_BAD_PARAM);
    EXPECT_NE(std::strstr(why.text, "not inside the 4096-byte file"), nullptr) << why.text;
    EXPECT_EQ(m, nullptr);
    EXPECT_EQ(shm->peer_map(int32_t(getpid()), f.fd, 0, 0, &m, &at, &why), PLEXUS_ERR_BAD_PARAM);
    EXPECT_EQ(shm->peer_map(int32_t(getpid()), 100000, 0, 8, &m, &at, &why), PLEXUS_ERR_UNREACH);
    EXPECT_NE(std::strstr(why.text, "pidfd_getfd"), nullptr) << why.text;
    EXPECT_EQ(shm->peer_map(0, f.fd, 0, 8, &m, &at, &why), PLEXUS_ERR_BAD_PARAM);
    EXPECT_EQ(shm->peer_map(int32_t(getpid()), f.fd, 0, 8, nullptr, &at, &why), PLEXUS_ERR_BAD_PARAM);
    EXPECT_EQ(shm->peer_unmap(nullptr), PLEXUS_ERR_BAD_PARAM);
}
