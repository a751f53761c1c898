// The table of secrets shared with other jobs' processes (framework/runtime/peer_secrets.h):
// newest first, per process, bounded, forgotten per process.
#include <gtest/gtest.h>

#include "runtime/peer_secrets.h"

namespace plexus::runtime {
namespace {

PeerSecrets::Secret secret(uint8_t fill) {
    PeerSecrets::Secret s{};
    s.fill(fill);
    return s;
}

TEST(PeerSecrets, AnUnknownProcessHasNone) {
    PeerSecrets t;
    EXPECT_TRUE(t.of({"job-b", 0}).empty());
    EXPECT_EQ(t.forget({"job-b", 0}), 0u);
}

TEST(PeerSecrets, SecretsComeNewestFirstPerProcess) {
    PeerSecrets t;
    t.add({"job-b", 0}, secret(1));
    t.add({"job-b", 0}, secret(2));
    t.add({"job-b", 1}, secret(3));
    const auto b0 = t.of({"job-b", 0});
    ASSERT_EQ(b0.size(), 2u);
    EXPECT_EQ(b0[0], secret(2));
    EXPECT_EQ(b0[1], secret(1));
    ASSERT_EQ(t.of({"job-b", 1}).size(), 1u);
    EXPECT_EQ(t.of({"job-b", 1})[0], secret(3));
    // Another namespace with the same rank is another process.
    EXPECT_TRUE(t.of({"job-c", 0}).empty());
    EXPECT_EQ(t.peers(), 2u);
}

TEST(PeerSecrets, ASecretAddedAgainMovesToTheFrontOnce) {
    PeerSecrets t;
    t.add({"job-b", 0}, secret(1));
    t.add({"job-b", 0}, secret(2));
    t.add({"job-b", 0}, secret(1));
    const auto v = t.of({"job-b", 0});
    ASSERT_EQ(v.size(), 2u);
    EXPECT_EQ(v[0], secret(1));
    EXPECT_EQ(v[1], secret(2));
}

TEST(PeerSecrets, TheOldestGoesBeyondTheBound) {
    PeerSecrets t;
    for (size_t i = 0; i < PeerSecrets::kMaxPerPeer + 3; ++i) t.add({"job-b", 0}, secret(static_cast<uint8_t>(i)));
    const auto v = t.of({"job-b", 0});
    ASSERT_EQ(v.size(), PeerSecrets::kMaxPerPeer);
    EXPECT_EQ(v.front(), secret(static_cast<uint8_t>(PeerSecrets::kMaxPerPeer + 2)));
    EXPECT_EQ(v.back(), secret(3));
}

TEST(PeerSecrets, ForgetDropsOneProcessOnly) {
    PeerSecrets t;
    t.add({"job-b", 0}, secret(1));
    t.add({"job-b", 0}, secret(2));
    t.add({"job-b", 1}, secret(3));
    EXPECT_EQ(t.forget({"job-b", 0}), 2u);
    EXPECT_TRUE(t.of({"job-b", 0}).empty());
    EXPECT_EQ(t.of({"job-b", 1}).size(), 1u);
    EXPECT_EQ(t.forget({"job-b", 0}), 0u);
}

}  // namespace
}  // namespace plexus::runtime
