// Unit tests of btl_tcp's frames as the receiver classifies them (messages within the limit, the
// goodbye, everything that makes a stream corrupt), their bytes as the sender makes them, and the
// options that bound how long a vanished host goes unnoticed (keepalive, TCP_USER_TIMEOUT), read
// back from a real socket.
#include <gtest/gtest.h>

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>

#include <cerrno>
#include <cstring>
#include <string>

#include "components/btl_tcp/frame.h"
#include "components/btl_tcp/socket_util.h"

using namespace plexus::btl_tcp;

namespace {

std::string bytes_of(const FrameHeader &h) { return std::string(reinterpret_cast<const char *>(&h), sizeof h); }

FrameHeader header(uint32_t len, uint8_t kind, uint8_t tag = 7) {
    FrameHeader h{};
    h.len = len;
    h.tag = tag;
    h.kind = kind;
    return h;
}

int get_int(int fd, int level, int name) {
    int v = -1;
    socklen_t len = sizeof v;
    EXPECT_EQ(::getsockopt(fd, level, name, &v, &len), 0) << std::strerror(errno);
    return v;
}

}  // namespace

TEST(TcpFrames, MessagesUpToTheLimitAreDeliveredLongerOnesAreCorrupt) {
    std::string why;
    EXPECT_EQ(classify_frame(header(0, kFrameMessage), 1000, &why), FrameUse::Message);
    EXPECT_EQ(classify_frame(header(1000, kFrameMessage), 1000, &why), FrameUse::Message);
    EXPECT_TRUE(why.empty()) << why;
    EXPECT_EQ(classify_frame(header(1001, kFrameMessage), 1000, &why), FrameUse::Corrupt);
    EXPECT_EQ(why, "sent a message of 1001 bytes, more than any btl_tcp_max_send_size: the stream is corrupt");
}

TEST(TcpFrames, AGoodbyeHasNoBodyAndAnUnknownKindIsCorrupt) {
    std::string why;
    EXPECT_EQ(classify_frame(header(0, kFrameGoodbye), 1000, &why), FrameUse::Goodbye);
    EXPECT_TRUE(why.empty()) << why;
    EXPECT_EQ(classify_frame(header(1, kFrameGoodbye), 1000, &why), FrameUse::Corrupt);
    EXPECT_EQ(why, "sent a goodbye of 1 bytes (it has none): the stream is corrupt");
    EXPECT_EQ(classify_frame(header(0, 2), 1000, &why), FrameUse::Corrupt);
    EXPECT_EQ(why, "sent a frame of unknown kind 2: the stream is corrupt");
    EXPECT_EQ(classify_frame(header(0, 255), 1000, &why), FrameUse::Corrupt);
    EXPECT_EQ(why, "sent a frame of unknown kind 255: the stream is corrupt");
}

// The bytes on the wire (host byte order: length, tag, kind, two zero bytes).
TEST(TcpFrames, HeadersAreEightBytesWithTheKindAfterTheTag) {
    const uint32_t len = 0x01020304;
    std::string msg(4, '\0');
    std::memcpy(&msg[0], &len, 4);
    msg += std::string("\x09\x00\x00\x00", 4);
    EXPECT_EQ(bytes_of(message_header(9, 0x01020304)), msg);
    EXPECT_EQ(bytes_of(goodbye_header()), std::string("\x00\x00\x00\x00\x00\x01\x00\x00", 8));
}

TEST(TcpSocketOptions, KeepaliveAndUserTimeoutReachTheSocket) {
    Fd fd(::socket(AF_INET, SOCK_STREAM, 0));
    ASSERT_TRUE(fd);
    SocketOptions o;
    o.keepalive_time = 7;
    o.keepalive_interval = 3;
    o.keepalive_count = 4;
    std::string why;
    ASSERT_TRUE(set_connection_options(fd.get(), o, &why)) << why;
    EXPECT_EQ(get_int(fd.get(), IPPROTO_TCP, TCP_NODELAY), 1);
    EXPECT_EQ(get_int(fd.get(), SOL_SOCKET, SO_KEEPALIVE), 1);
    EXPECT_EQ(get_int(fd.get(), IPPROTO_TCP, TCP_KEEPIDLE), 7);
    EXPECT_EQ(get_int(fd.get(), IPPROTO_TCP, TCP_KEEPINTVL), 3);
    EXPECT_EQ(get_int(fd.get(), IPPROTO_TCP, TCP_KEEPCNT), 4);
    EXPECT_EQ(get_int(fd.get(), IPPROTO_TCP, TCP_USER_TIMEOUT), (7 + 3 * 4) * 1000);  // the keepalive's bound
    o.user_timeout_ms = 2500;
    ASSERT_TRUE(set_connection_options(fd.get(), o, &why)) << why;
    EXPECT_EQ(get_int(fd.get(), IPPROTO_TCP, TCP_USER_TIMEOUT), 2500);
}

TEST(TcpSocketOptions, KeepaliveTimeZeroTurnsProbesOff) {
    Fd fd(::socket(AF_INET, SOCK_STREAM, 0));
    ASSERT_TRUE(fd);
    SocketOptions o;
    o.keepalive_time = 0;
    std::string why;
    ASSERT_TRUE(set_connection_options(fd.get(), o, &why)) << why;
    EXPECT_EQ(get_int(fd.get(), SOL_SOCKET, SO_KEEPALIVE), 0);
    EXPECT_EQ(get_int(fd.get(), IPPROTO_TCP, TCP_USER_TIMEOUT), 0);  // the kernel's retransmission limits
    EXPECT_EQ(effective_user_timeout_ms(o), 0);
    o.keepalive_time = 32767;
    o.keepalive_interval = 32767;
    o.keepalive_count = 127;
    EXPECT_GT(effective_user_timeout_ms(o), 0);  // clamped, not wrapped
}

// The defaults: a host that vanished is noticed after 25 s, idle or sending.
TEST(TcpSocketOptions, TheDefaultsBoundSilenceAt25Seconds) {
    EXPECT_EQ(effective_user_timeout_ms(SocketOptions{}), 25000);
}
