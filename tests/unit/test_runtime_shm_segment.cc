// Unit tests of the core's shared segments (framework/runtime/shm/shm_segment.*): anonymous where
// peers can borrow descriptors, named 0600 otherwise with the name gone once the last expected
// peer attached (even when the owner died), and descriptors that do not match refused.
#include <gtest/gtest.h>

#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstring>
#include <string>

#include "runtime/shm/fd_borrow.h"
#include "runtime/shm/fd_server.h"
#include "runtime/shm/segment_name.h"
#include "runtime/shm/shm_segment.h"

using namespace plexus::runtime;

namespace {

constexpr size_t kSize = 1 << 20;
const std::string kPrefix = "plexus-unittest" + std::to_string(::getpid()) + "-";

ShmCreateSpec spec(bool named, uint32_t expected_peers = 1) {
    ShmCreateSpec s;
    s.prefix = kPrefix;
    s.label = "test";
    s.size = kSize;
    s.expected_peers = expected_peers;
    s.named = named;
    return s;
}

bool name_exists(const std::string &name) {
    struct stat st {};
    return ::stat(("/dev/shm" + name).c_str(), &st) == 0;
}

TEST(ShmSegment, FdPassingWorksOnTheTestMachine) {
    std::string why;
    EXPECT_TRUE(fd_passing_available(&why)) << why;
}

TEST(ShmSegment, NamesAreJobPrefixedLabelledAndRandom) {
    std::string a, b, why;
    uint64_t ta = 0, tb = 0;
    ASSERT_TRUE(make_segment_name(kPrefix, "sm", &a, &ta, &why)) << why;
    ASSERT_TRUE(make_segment_name(kPrefix, "sm", &b, &tb, &why)) << why;
    EXPECT_EQ(a.rfind("/" + kPrefix + "sm-", 0), 0u) << a;
    EXPECT_EQ(a.size(), 1 + kPrefix.size() + 3 + 16) << a;
    EXPECT_NE(a, b);
    EXPECT_NE(ta, tb);
    for (const char *bad : {"", "Upper", "a/b", "much_too_long_label", "dot."})
        EXPECT_FALSE(make_segment_name(kPrefix, bad, &a, &ta, &why)) << bad;
}

TEST(ShmSegment, AnAnonymousSegmentNeverHasANameAndIsReachedByItsOwnersDescriptor) {
    ShmSegment owner, peer;
    ASSERT_TRUE(ShmSegment::create(spec(false), &owner).is_ok());
    EXPECT_TRUE(owner.anonymous());
    EXPECT_FALSE(owner.named());
    EXPECT_FALSE(name_exists(owner.name()));
    EXPECT_EQ(owner.size(), kSize);
    EXPECT_EQ(reinterpret_cast<uintptr_t>(owner.base()) % ::sysconf(_SC_PAGESIZE), 0u);
    const plexus_shm_desc_t d = owner.describe();
    EXPECT_EQ(d.flags & PLEXUS_SHM_DESC_ANONYMOUS, PLEXUS_SHM_DESC_ANONYMOUS);
    Status s = ShmSegment::attach(d, &peer);
    ASSERT_TRUE(s.is_ok()) << s.message;
    std::memcpy(owner.base() + 12345, "through the descriptor", 23);
    EXPECT_EQ(std::memcmp(peer.base() + 12345, "through the descriptor", 23), 0);
    EXPECT_EQ(owner.attached(), 1u);
}

TEST(ShmSegment, AnAnonymousSegmentWithoutTheOwnersDescriptorIsUnreachableWithAReason) {
    ShmSegment owner, peer;
    ASSERT_TRUE(ShmSegment::create(spec(false), &owner).is_ok());
    plexus_shm_desc_t d = owner.describe();
    d.owner_fd = 987;  // not a descriptor of the owner
    Status s = ShmSegment::attach(d, &peer);
    EXPECT_EQ(s.code, PLEXUS_ERR_UNREACH);
    EXPECT_NE(s.message.find(owner.name()), std::string::npos) << s.message;
}

TEST(ShmSegment, ANamedSegmentIsPrivateAndItsLastExpectedPeerRemovesTheName) {
    ShmSegment owner;
    ASSERT_TRUE(ShmSegment::create(spec(true, 2), &owner).is_ok());
    struct stat st {};
    ASSERT_EQ(::stat(("/dev/shm" + owner.name()).c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 0777, 0600u);
    EXPECT_FALSE(owner.unlink_if_all_attached());
    ShmSegment first, second;
    ASSERT_TRUE(ShmSegment::attach(owner.describe(), &first).is_ok());
    EXPECT_TRUE(name_exists(owner.name())) << "only one of two expected peers attached";
    first = ShmSegment();
    EXPECT_TRUE(name_exists(owner.name())) << "an attached segment's destructor removed the owner's name";
    ASSERT_TRUE(ShmSegment::attach(owner.describe(), &second).is_ok());
    EXPECT_FALSE(name_exists(owner.name())) << "the last expected peer left the name";
    EXPECT_TRUE(owner.unlink_if_all_attached());
}

TEST(ShmSegment, ALateComerBorrowsTheDescriptorOnceTheNameIsGone) {
    ShmSegment owner, late;
    ASSERT_TRUE(ShmSegment::create(spec(true, 0), &owner).is_ok());
    EXPECT_TRUE(owner.unlink_if_all_attached());
    EXPECT_FALSE(name_exists(owner.name()));
    std::memcpy(owner.base(), "still here", 11);
    Status s = ShmSegment::attach(owner.describe(), &late);
    ASSERT_TRUE(s.is_ok()) << s.message;
    EXPECT_EQ(std::memcmp(late.base(), "still here", 11), 0);
}

// The owner dies without cleaning up (as under a launcher that kills with SIGKILL); the last
// peer it waited for removes the name, and still maps the memory.
TEST(ShmSegment, TheLastPeerRemovesTheNameOfAnOwnerThatCrashed) {
    int pipefd[2];
    ASSERT_EQ(::pipe(pipefd), 0);
    const pid_t child = ::fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
        ShmSegment owner;
        if (!ShmSegment::create(spec(true, 1), &owner).is_ok()) ::_exit(1);
        std::memcpy(owner.base(), "left by the dead", 17);
        const plexus_shm_desc_t d = owner.describe();
        if (::write(pipefd[1], &d, sizeof d) != sizeof d) ::_exit(2);
        ::_exit(0);  // no destructor: the name stays
    }
    plexus_shm_desc_t d{};
    ASSERT_EQ(::read(pipefd[0], &d, sizeof d), static_cast<ssize_t>(sizeof d));
    ::close(pipefd[0]);
    ::close(pipefd[1]);
    int status = 0;
    ASSERT_EQ(::waitpid(child, &status, 0), child);
    ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    ASSERT_TRUE(name_exists(d.name));
    ShmSegment peer;
    Status s = ShmSegment::attach(d, &peer);
    ASSERT_TRUE(s.is_ok()) << s.message;
    EXPECT_FALSE(name_exists(d.name));
    EXPECT_EQ(std::memcmp(peer.base(), "left by the dead", 17), 0);
}

// Where pidfd_getfd is not allowed, a process of a later job asks the owner of a named segment
// whose name is gone for its descriptor over the owner's socket (a descriptor without the
// owner's descriptor number stands for that here).
TEST(ShmSegment, ALateComerThatCannotBorrowAsksTheOwnerForTheDescriptor) {
    int desc_pipe[2], done_pipe[2];
    ASSERT_EQ(::pipe(desc_pipe), 0);
    ASSERT_EQ(::pipe(done_pipe), 0);
    const pid_t child = ::fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
        ShmSegment owner;
        if (!ShmSegment::create(spec(true, 0), &owner).is_ok()) ::_exit(1);
        if (!owner.unlink_if_all_attached()) ::_exit(2);
        std::memcpy(owner.base() + 4096, "served by its owner", 20);
        const plexus_shm_desc_t d = owner.describe();
        if (::write(desc_pipe[1], &d, sizeof d) != sizeof d) ::_exit(3);
        char c;
        if (::read(done_pipe[0], &c, 1) != 1) ::_exit(4);  // the peer has looked
        ::_exit(std::memcmp(owner.base() + 8192, "written by the peer", 20) == 0 ? 0 : 5);
    }
    plexus_shm_desc_t d{};
    ASSERT_EQ(::read(desc_pipe[0], &d, sizeof d), static_cast<ssize_t>(sizeof d));
    EXPECT_FALSE(name_exists(d.name));
    d.owner_fd = -1;
    ShmSegment peer;
    Status s = ShmSegment::attach(d, &peer);
    ASSERT_TRUE(s.is_ok()) << s.message;
    EXPECT_EQ(std::memcmp(peer.base() + 4096, "served by its owner", 20), 0);
    std::memcpy(peer.base() + 8192, "written by the peer", 20);
    ASSERT_EQ(::write(done_pipe[1], "x", 1), 1);
    int status = 0;
    ASSERT_EQ(::waitpid(child, &status, 0), child);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "status " << status;
    for (int fd : {desc_pipe[0], desc_pipe[1], done_pipe[0], done_pipe[1]}) ::close(fd);
    // The owner is gone: the next one is told why it cannot get in.
    ShmSegment later;
    s = ShmSegment::attach(d, &later);
    EXPECT_EQ(s.code, PLEXUS_ERR_UNREACH);
    EXPECT_NE(s.message.find("serves no descriptors"), std::string::npos) << s.message;
}

TEST(ShmFdServer, GivesOfferedDescriptorsOnlyToItsUserAndOnlyByTheirTag) {
    const int memfd = ::memfd_create("plexus-fd-server-test", MFD_CLOEXEC);
    ASSERT_GE(memfd, 0);
    const uint64_t tag = 0x1234567887654321ull;
    std::string why;
    ASSERT_TRUE(offer_fd(tag, memfd, &why)) << why;
    const int got = request_fd(::getpid(), tag, 2000, &why);
    ASSERT_GE(got, 0) << why;
    struct stat a {}, b {};
    ASSERT_EQ(::fstat(memfd, &a), 0);
    ASSERT_EQ(::fstat(got, &b), 0);
    EXPECT_EQ(a.st_ino, b.st_ino) << "another file than the one offered";
    ::close(got);
    EXPECT_LT(request_fd(::getpid(), tag ^ 1, 2000, &why), 0);
    EXPECT_NE(why.find("offers no segment"), std::string::npos) << why;
    EXPECT_LT(request_fd(999999, tag, 2000, &why), 0) << "a process that serves nothing";
    if (::geteuid() == 0) {
        // A process of another user may not have it, even with the tag.
        const pid_t owner = ::getpid();
        const pid_t child = ::fork();
        ASSERT_GE(child, 0);
        if (child == 0) {
            if (::setuid(65534) != 0) ::_exit(2);
            std::string w;
            ::_exit(request_fd(owner, tag, 2000, &w) < 0 ? 0 : 1);
        }
        int status = 0;
        ASSERT_EQ(::waitpid(child, &status, 0), child);
        EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "another user got the descriptor";
    }
    withdraw_fd(tag);
    EXPECT_LT(request_fd(::getpid(), tag, 2000, &why), 0) << "a withdrawn descriptor was still given";
    ::close(memfd);
}

TEST(ShmSegment, ForeignOrMalformedDescriptorsAreRefused) {
    ShmSegment owner, other, peer;
    ASSERT_TRUE(ShmSegment::create(spec(true, 5), &owner).is_ok());
    ASSERT_TRUE(ShmSegment::create(spec(false), &other).is_ok());
    const plexus_shm_desc_t good = owner.describe();
    auto refused = [&](plexus_shm_desc_t d, const char *what) {
        Status s = ShmSegment::attach(d, &peer);
        EXPECT_FALSE(s.is_ok()) << what;
        EXPECT_FALSE(s.message.empty()) << what;
        return s;
    };
    plexus_shm_desc_t d = good;
    d.magic = 0;
    EXPECT_EQ(refused(d, "magic").code, PLEXUS_ERR_BAD_PARAM);
    d = good;
    d.version = 99;
    EXPECT_EQ(refused(d, "version").code, PLEXUS_ERR_BAD_PARAM);
    d = good;
    std::memset(d.name, 'x', sizeof d.name);
    EXPECT_EQ(refused(d, "unterminated").code, PLEXUS_ERR_BAD_PARAM);
    d = good;
    std::strcpy(d.name, "/../etc/passwd");
    EXPECT_EQ(refused(d, "path").code, PLEXUS_ERR_BAD_PARAM);
    d = good;
    d.tag ^= 1;  // names the segment, but is not its descriptor
    EXPECT_NE(refused(d, "tag").message.find("another segment"), std::string::npos);
    d = good;
    d.size += 4096;
    EXPECT_EQ(refused(d, "size").code, PLEXUS_ERR_BAD_PARAM);
    d = other.describe();  // another segment's descriptor with this one's tag
    d.tag = good.tag;
    EXPECT_EQ(refused(d, "swapped").code, PLEXUS_ERR_BAD_PARAM);
    d = good;
    d.owner_pid = 0;
    EXPECT_EQ(refused(d, "pid").code, PLEXUS_ERR_BAD_PARAM);
    EXPECT_EQ(owner.attached(), 0u) << "a refused descriptor counted as an attached peer";
}

}  // namespace
