// The datagram facility's HMAC-SHA256 (block functions, no EVP initialisation) gives the bytes
// of RFC 4231's test vectors and of OpenSSL's own HMAC() for every key length around the block
// size and messages fed in pieces; a reused key gives each message its own tag. libcrypto is
// opened at the first MAC: without it the facility says which file it could not load, and a MAC
// computed anyway never verifies.
#include <gtest/gtest.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>

#include <random>
#include <string>
#include <vector>

#include "runtime/dgram/authenticator.h"
#include "runtime/dgram/hmac_sha256.h"

using plexus::runtime::dgram::HmacSha256;

namespace {

using Bytes = std::vector<uint8_t>;

std::string hex(const uint8_t *p, size_t n) {
    static const char digits[] = "0123456789abcdef";
    std::string s;
    for (size_t i = 0; i < n; ++i) {
        s += digits[p[i] >> 4];
        s += digits[p[i] & 15];
    }
    return s;
}

std::string ours(const Bytes &key, const Bytes &msg) {
    uint8_t out[HmacSha256::kBytes];
    HmacSha256::once(key.data(), key.size(), msg.data(), msg.size(), out);
    return hex(out, sizeof out);
}

std::string openssl(const Bytes &key, const Bytes &msg) {
    uint8_t out[EVP_MAX_MD_SIZE];
    unsigned n = 0;
    static const uint8_t none = 0;  // HMAC() refuses a null key even of length 0
    HMAC(EVP_sha256(), key.empty() ? &none : key.data(), static_cast<int>(key.size()), msg.data(), msg.size(),
         out, &n);
    return hex(out, n);
}

Bytes text(const std::string &s) { return Bytes(s.begin(), s.end()); }

Bytes random_bytes(std::mt19937 &rng, size_t n) {
    Bytes b(n);
    for (auto &x : b) x = static_cast<uint8_t>(rng());
    return b;
}

TEST(DgramHmac, Rfc4231Vectors) {
    // Test case 1: a 20-byte key of 0x0b.
    EXPECT_EQ(ours(Bytes(20, 0x0b), text("Hi There")),
              "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7");
    // Test case 2: a short key.
    EXPECT_EQ(ours(text("Jefe"), text("what do ya want for nothing?")),
              "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
    // Test case 6: a 131-byte key, hashed first.
    EXPECT_EQ(ours(Bytes(131, 0xaa), text("Test Using Larger Than Block-Size Key - Hash Key First")),
              "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54");
}

TEST(DgramHmac, SameAsOpensslForEveryKeyLength) {
    std::mt19937 rng(20);
    for (size_t key_len : {0, 1, 31, 32, 63, 64, 65, 100, 200})
        for (size_t msg_len : {0, 1, 55, 56, 64, 1000}) {
            Bytes key = random_bytes(rng, key_len), msg = random_bytes(rng, msg_len);
            EXPECT_EQ(ours(key, msg), openssl(key, msg)) << "key " << key_len << " message " << msg_len;
        }
}

TEST(DgramHmac, PiecesAndReusedKey) {
    std::mt19937 rng(4231);
    Bytes key = random_bytes(rng, 32);
    HmacSha256 mac(key.data(), key.size());
    for (size_t len : {0, 7, 64, 65, 3000}) {
        Bytes msg = random_bytes(rng, len);
        mac.begin();
        for (size_t at = 0; at < len; at += 13) mac.update(msg.data() + at, std::min<size_t>(13, len - at));
        uint8_t out[HmacSha256::kBytes];
        mac.finish(out);
        EXPECT_EQ(hex(out, sizeof out), openssl(key, msg)) << "message " << len;
    }
}

TEST(DgramHmac, EqualComparesEveryByte) {
    const uint8_t a[4] = {1, 2, 3, 4}, b[4] = {1, 2, 3, 5};
    EXPECT_TRUE(HmacSha256::equal(a, a, sizeof a));
    EXPECT_FALSE(HmacSha256::equal(a, b, sizeof a));
    EXPECT_TRUE(HmacSha256::equal(a, b, 3));
}

// Secrets are wiped when their holder goes, an empty one too (a null data(): UBSan's complaint in
// every process whose authenticator never derived a key).
TEST(DgramHmac, SecureZeroWipesAndTakesAnEmptyBuffer) {
    std::vector<uint8_t> secret(32, 0xa5), empty;
    plexus::sdk::secure_zero(secret.data(), secret.size());
    EXPECT_EQ(secret, std::vector<uint8_t>(32, 0));
    plexus::sdk::secure_zero(empty.data(), empty.size());
    EXPECT_TRUE(empty.empty());
}

// Run in a process of its own (the library is opened once per process): 0 when everything holds.
int check_without_libcrypto() {
    setenv("PLEXUS_LIBCRYPTO", "/nonexistent/libcrypto-for-test.so", 1);
    std::string why;
    if (HmacSha256::available(&why)) return 10;
    if (why.find("HMAC-SHA256 needs libcrypto.so.3, which cannot be loaded from /nonexistent/libcrypto-for-test.so "
                 "(set by PLEXUS_LIBCRYPTO): ") == std::string::npos)
        return 11;
    const Bytes key(32, 7);
    const Bytes msg(100, 1);
    if (ours(key, msg) == ours(key, msg)) return 12;  // random bytes: a check against them fails
    std::unique_ptr<plexus::runtime::dgram::Authenticator> auth;
    const uint8_t secret[16] = {};
    plexus::runtime::Status s = plexus::runtime::dgram::Authenticator::create(secret, sizeof secret, "test", &auth);
    if (!s) return 13;  // keys are derived at the first datagram
    uint8_t header[plexus::runtime::dgram::Header::kBytes] = {};
    uint8_t tag[plexus::runtime::dgram::Header::kTagBytes];
    if (auth->tag(header, nullptr, 0, tag) || auth->verify(header, sizeof header)) return 14;
    if (auth->why().find("libcrypto-for-test.so") == std::string::npos) return 15;
    return 0;
}

TEST(DgramHmac, WithoutLibcryptoNamesTheFileAndNoMacVerifies) {
    GTEST_FLAG_SET(death_test_style, "threadsafe");  // re-executed: nothing opened yet
    EXPECT_EXIT(std::exit(check_without_libcrypto()), ::testing::ExitedWithCode(0),
                "plexus error: HMAC-SHA256 needs libcrypto.so.3, which cannot be loaded from "
                "/nonexistent/libcrypto-for-test.so");
}

}  // namespace
