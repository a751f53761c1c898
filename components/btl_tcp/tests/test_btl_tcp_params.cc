// Unit tests of btl_tcp's parameters and interface selection (on a made-up list of interfaces, so
// that they do not depend on this machine's), and of the handshake's proofs.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "components/btl_tcp/handshake.h"
#include "components/btl_tcp/interfaces.h"
#include "components/btl_tcp/tcp_params.h"

using namespace plexus::btl_tcp;

namespace {

Interface iface(const char *name, uint32_t addr, int bits, bool loop = false) {
    Interface i;
    i.name = name;
    i.addr = addr;
    i.netmask = bits == 0 ? 0 : ~uint32_t{0} << (32 - bits);
    i.loopback = loop;
    return i;
}

const std::vector<Interface> kIfs = {iface("lo", 0x7f000001, 8, true), iface("eth0", 0x0a000005, 24),
                                     iface("ib0", 0xc0a80107, 16)};
const char *kListed = "lo (127.0.0.1/8), eth0 (10.0.0.5/24), ib0 (192.168.1.7/16)";

std::vector<std::string> names(const std::vector<Interface> &ifs) {
    std::vector<std::string> n;
    for (const auto &i : ifs) n.push_back(i.name);
    return n;
}

std::vector<std::string> selected(const std::string &include, const std::string &exclude) {
    std::vector<IfSpec> inc, exc;
    std::string why;
    EXPECT_TRUE(parse_if_list("btl_tcp_if_include", include, kIfs, &inc, &why)) << why;
    EXPECT_TRUE(parse_if_list("btl_tcp_if_exclude", exclude, kIfs, &exc, &why)) << why;
    std::vector<Interface> out;
    EXPECT_TRUE(select_interfaces(kIfs, inc, exc, &out, &why)) << why;
    return names(out);
}

TEST(TcpInterfaces, NamesAndCidrsSelect) {
    using V = std::vector<std::string>;
    EXPECT_EQ(selected("", ""), (V{"lo", "eth0", "ib0"}));
    EXPECT_EQ(selected("eth0", ""), (V{"eth0"}));
    EXPECT_EQ(selected(" ib0 , eth0 ", ""), (V{"eth0", "ib0"}));
    EXPECT_EQ(selected("10.0.0.0/8", ""), (V{"eth0"}));
    EXPECT_EQ(selected("192.168.0.0/16,127.0.0.0/8", ""), (V{"lo", "ib0"}));
    EXPECT_EQ(selected("0.0.0.0/0", ""), (V{"lo", "eth0", "ib0"}));
    EXPECT_EQ(selected("", "lo"), (V{"eth0", "ib0"}));
    EXPECT_EQ(selected("", "127.0.0.1/32,10.0.0.4/30"), (V{"ib0"}));
    EXPECT_EQ(selected("10.0.0.5/32", ""), (V{"eth0"}));
}

TEST(TcpInterfaces, ABadEntryNamesTheParameterTheEntryAndWhatExists) {
    for (const std::string bad : {"eht0", "10.0.0/8", "10.0.0.0/33", "10.0.0.0/", "a.b.c.d/8", "10.0.0.1/-1",
                                  "10.0.0.0/8/8"}) {
        std::vector<IfSpec> out;
        std::string why;
        EXPECT_FALSE(parse_if_list("btl_tcp_if_exclude", "lo," + bad, kIfs, &out, &why)) << bad;
        EXPECT_EQ(why.rfind("btl_tcp_if_exclude: ", 0), 0u) << why;
        EXPECT_NE(why.find("'" + bad + "'"), std::string::npos) << why;
        EXPECT_NE(why.find(std::string("interfaces here: ") + kListed), std::string::npos) << why;
    }
    std::vector<IfSpec> out;
    std::string why;
    EXPECT_FALSE(parse_if_list("btl_tcp_if_include", "eht0", kIfs, &out, &why));
    EXPECT_EQ(why, std::string("btl_tcp_if_include: no IPv4 interface 'eht0' is up; interfaces here: ") + kListed);
    EXPECT_FALSE(parse_if_list("btl_tcp_if_include", "10.0.0/8", kIfs, &out, &why));
    EXPECT_EQ(why, std::string("btl_tcp_if_include: '10.0.0/8' is not an IPv4 CIDR (a.b.c.d/n, n from 0 to 32); "
                               "interfaces here: ") +
                       kListed);
}

TEST(TcpInterfaces, NothingLeftIsAnError) {
    std::vector<IfSpec> inc, exc;
    std::string why;
    ASSERT_TRUE(parse_if_list("btl_tcp_if_include", "172.16.0.0/12", kIfs, &inc, &why));
    std::vector<Interface> out;
    EXPECT_FALSE(select_interfaces(kIfs, inc, exc, &out, &why));
    EXPECT_EQ(why, std::string("btl_tcp_if_include leaves no interface to use; interfaces here: ") + kListed);
    EXPECT_EQ(describe_interfaces({}), "none is up");
}

TEST(TcpParams, ValidationNamesTheParameter) {
    TcpParams p;
    EXPECT_EQ(validate_tcp_params(p), "");
    p.if_include = "eth0";
    p.if_exclude = "lo";
    EXPECT_EQ(validate_tcp_params(p), "btl_tcp_if_include (eth0) and btl_tcp_if_exclude (lo) are both set; set one of them");
    p = TcpParams{};
    p.eager_limit = 256 * 1024;
    EXPECT_NE(validate_tcp_params(p).find("btl_tcp_eager_limit is 262144 bytes"), std::string::npos);
    p = TcpParams{};
    p.max_send_size = 32 * 1024 * 1024;
    EXPECT_NE(validate_tcp_params(p).find("btl_tcp_max_send_size is 33554432 bytes"), std::string::npos);
    p = TcpParams{};
    p.max_queued = 1000;
    EXPECT_NE(validate_tcp_params(p).find("btl_tcp_max_queued is 1000 bytes, below btl_tcp_max_send_size"),
              std::string::npos);
    p = TcpParams{};
    p.port_min = 65500;
    EXPECT_EQ(validate_tcp_params(p), "btl_tcp_port_min 65500 with btl_tcp_port_range 100 goes past port 65535");
}

// The two proofs differ from each other, from one nonce to the next and from one secret to another.
TEST(TcpHandshake, ProofsAreBoundToTheSecretTheHelloAndTheNonce) {
    uint8_t secret[32] = {1, 2, 3};
    HandshakeKey k1, k2;
    ASSERT_TRUE(k1.derive(secret, sizeof secret));
    secret[31] = 1;
    ASSERT_TRUE(k2.derive(secret, sizeof secret));
    Hello h;
    ASSERT_TRUE(make_hello("job", 1, "job", 0, &h));
    EXPECT_EQ(check_hello(h), "");
    uint8_t nonce[kNonceBytes] = {9}, other_nonce[kNonceBytes] = {8};
    uint8_t a[kMacBytes], c[kMacBytes], a2[kMacBytes], x[kMacBytes], n2[kMacBytes];
    ASSERT_TRUE(k1.acceptor_mac(h, nonce, a));
    ASSERT_TRUE(k1.connector_mac(h, nonce, c));
    ASSERT_TRUE(k1.acceptor_mac(h, nonce, a2));
    ASSERT_TRUE(k2.acceptor_mac(h, nonce, x));
    ASSERT_TRUE(k1.acceptor_mac(h, other_nonce, n2));
    EXPECT_TRUE(same_mac(a, a2));
    EXPECT_FALSE(same_mac(a, c));
    EXPECT_FALSE(same_mac(a, x));
    EXPECT_FALSE(same_mac(a, n2));
    Hello h2 = h;
    h2.from_rank = 2;
    ASSERT_TRUE(k1.acceptor_mac(h2, nonce, a2));
    EXPECT_FALSE(same_mac(a, a2));
    Hello fresh;
    ASSERT_TRUE(make_hello("job", 1, "job", 0, &fresh));
    EXPECT_NE(std::memcmp(fresh.nonce, h.nonce, kNonceBytes), 0);
}

TEST(TcpHandshake, MalformedHellosAreNamed) {
    Hello h;
    ASSERT_TRUE(make_hello("job", 1, "job", 0, &h));
    Hello bad = h;
    bad.magic = 0x12345678;
    EXPECT_EQ(check_hello(bad), "not a btl_tcp hello (wrong magic)");
    bad = h;
    bad.version = 7;
    EXPECT_EQ(check_hello(bad), "hello of wire version 7, this library speaks " + std::to_string(kWireVersion));
    bad.version = 1;  // before the goodbye frame: its closes would all read as failures
    EXPECT_EQ(check_hello(bad), "hello of wire version 1, this library speaks 3");
    bad.version = 2;  // before the key id: between jobs it would prove the wrong secret
    EXPECT_EQ(check_hello(bad), "hello of wire version 2, this library speaks 3");
    bad = h;
    std::memset(bad.to_nspace, 'x', sizeof bad.to_nspace);
    EXPECT_EQ(check_hello(bad), "hello with an unterminated namespace");
    EXPECT_FALSE(make_hello(std::string(kNspaceBytes, 'n'), 0, "job", 1, &h));
}

}  // namespace
