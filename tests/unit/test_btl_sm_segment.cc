// Unit tests of btl_sm's segments (issue 15: nothing left in /dev/shm when a rank crashes): an
// anonymous segment never has a name and is reached through the owner's descriptor; a named one
// is 0600 and loses its name when the last expected peer attaches, even if its owner is gone.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>

#include "components/btl_sm/shm_segment.h"

using namespace plexus::btl_sm;

namespace {

constexpr size_t kSize = 1 << 20;

std::string fresh_name() {
    std::string name, why;
    EXPECT_TRUE(random_segment_name("plexus-unittest-", &name, &why)) << why;
    return name;
}

bool name_exists(const std::string &name) {
    struct stat st {};
    return ::stat(("/dev/shm" + name).c_str(), &st) == 0;
}

TEST(SmSegment, FdPassingWorksOnTheTestMachine) {
    std::string why;
    EXPECT_TRUE(fd_passing_available(&why)) << why;
}

TEST(SmSegment, AnAnonymousSegmentNeverHasANameAndIsReachedByItsOwnersDescriptor) {
    const std::string name = fresh_name();
    ShmSegment owner, peer;
    std::string why;
    ASSERT_TRUE(ShmSegment::create(name, kSize, Backing::anonymous, &owner, &why)) << why;
    EXPECT_FALSE(name_exists(name));
    EXPECT_FALSE(owner.linked());
    ASSERT_GE(owner.fd(), 0);
    ASSERT_TRUE(ShmSegment::attach(SegmentAddress{name, kSize, ::getpid(), owner.fd()}, &peer, &why)) << why;
    EXPECT_FALSE(peer.opened_by_name());
    std::memcpy(owner.base() + 12345, "through the descriptor", 23);
    EXPECT_EQ(std::memcmp(peer.base() + 12345, "through the descriptor", 23), 0);
}

TEST(SmSegment, AnAnonymousSegmentWithoutTheOwnersDescriptorIsUnreachableWithAReason) {
    const std::string name = fresh_name();
    ShmSegment owner, peer;
    std::string why;
    ASSERT_TRUE(ShmSegment::create(name, kSize, Backing::anonymous, &owner, &why)) << why;
    EXPECT_FALSE(ShmSegment::attach(SegmentAddress{name, kSize, ::getpid(), -1}, &peer, &why));
    EXPECT_NE(why.find(name), std::string::npos) << why;
}

TEST(SmSegment, ANamedSegmentIsPrivateAndKeepsItsNameWhileOnlyAttachersGo) {
    const std::string name = fresh_name();
    ShmSegment owner;
    std::string why;
    ASSERT_TRUE(ShmSegment::create(name, kSize, Backing::named, &owner, &why)) << why;
    struct stat st {};
    ASSERT_EQ(::stat(("/dev/shm" + name).c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 0777, 0600u);
    {
        ShmSegment peer;
        ASSERT_TRUE(ShmSegment::attach(SegmentAddress{name, kSize, ::getpid(), owner.fd()}, &peer, &why)) << why;
        EXPECT_TRUE(peer.opened_by_name());
    }
    EXPECT_TRUE(name_exists(name)) << "an attached segment's destructor removed the owner's name";
    owner.unlink();
    EXPECT_FALSE(name_exists(name));
}

// The owner dies without cleaning up (as under a launcher that kills with SIGKILL); the last
// peer it waited for removes the name, and still maps the memory.
TEST(SmSegment, TheLastPeerRemovesTheNameOfAnOwnerThatCrashed) {
    const std::string name = fresh_name();
    const pid_t child = ::fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
        ShmSegment owner;
        std::string why;
        if (!ShmSegment::create(name, kSize, Backing::named, &owner, &why)) ::_exit(1);
        std::memcpy(owner.base(), "left by the dead", 17);
        ::_exit(0);  // no destructor: the name stays
    }
    int status = 0;
    ASSERT_EQ(::waitpid(child, &status, 0), child);
    ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    ASSERT_TRUE(name_exists(name));
    ShmSegment peer;
    std::string why;
    ASSERT_TRUE(ShmSegment::attach(SegmentAddress{name, kSize, child, -1}, &peer, &why)) << why;
    peer.unlink_for_owner();
    EXPECT_FALSE(name_exists(name));
    EXPECT_EQ(std::memcmp(peer.base(), "left by the dead", 17), 0);
    peer.unlink_for_owner();  // once only: harmless again
}

}  // namespace
