// HMAC-SHA256 (RFC 2104) over libcrypto's SHA-256 block functions, not its EVP layer, for the core
// and components alike (the datagram MAC, btl_tcp's handshake, dpm_ud's rc proof). The first EVP
// call of a process initialises OpenSSL's providers, method stores and configuration: about 6
// million instructions, a quarter of what a rank executes from exec to the end of MPI_Init (issue
// 20's spawn rate). The block functions need no initialisation and give the same bytes
// (tests/unit/test_runtime_dgram_hmac checks RFC 4231's vectors and OpenSSL's HMAC()). OpenSSL 3
// marks them deprecated in favour of EVP, whose first use is the cost avoided; they stay in 3.x.
//
// libcrypto is opened at the first MAC (dlopen), not linked: mapping and relocating it costs every
// process about 2.7 M instructions at start (its 3,377 symbol bindings; docs/dynamic-processes.md),
// and most processes never authenticate a datagram or a TCP connection. Header-only, so the core
// and each plugin resolve it themselves (sdk/on_demand_library.hpp); nothing links -lcrypto.
// PLEXUS_LIBCRYPTO names another file to open (tests point it at a missing one).
// Without libcrypto a MAC cannot be computed: available() says why, and a MAC computed anyway is
// random bytes, so that whatever checks it fails closed.
#pragma once

#include <openssl/sha.h>  // SHA256_CTX and the prototypes, for the types of the resolved functions
#include <sys/random.h>

#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include <plexus/sdk/on_demand_library.hpp>

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

namespace plexus::sdk {

// Zeroes secrets in a way the compiler may not drop (what OPENSSL_cleanse does). An empty
// container's data() may be null, which explicit_bzero may not be given even for no bytes.
inline void secure_zero(void *p, size_t len) {
    if (len > 0) explicit_bzero(p, len);
}

// libcrypto's SHA-256 block functions, resolved once per process (per plugin) at the first use.
class LibcryptoSha256 {
public:
    static const LibcryptoSha256 &get() {
        static const LibcryptoSha256 lib;  // thread-safe initialisation
        return lib;
    }
    bool ok() const { return init && update && finish; }
    const std::string &why() const { return why_; }

    decltype(&SHA256_Init) init = nullptr;
    decltype(&SHA256_Update) update = nullptr;
    decltype(&SHA256_Final) finish = nullptr;

private:
    LibcryptoSha256() {
        static OnDemandLibrary lib("libcrypto.so.3", "PLEXUS_LIBCRYPTO", "HMAC-SHA256");
        if (!lib.resolve("SHA256_Init", &init, &why_) || !lib.resolve("SHA256_Update", &update, &why_) ||
            !lib.resolve("SHA256_Final", &finish, &why_))
            init = nullptr;  // ok() false: all three or none
        // Said once, whoever asks: a plugin that never calls available() still leaves a trace.
        if (!why_.empty()) std::fprintf(stderr, "plexus error: %s; every MAC computed fails to verify\n", why_.c_str());
    }
    std::string why_;
};

class HmacSha256 {
public:
    static constexpr size_t kBytes = 32;

    // False, with the reason, when libcrypto cannot be used (opens it on the first call).
    static bool available(std::string *why = nullptr) {
        const LibcryptoSha256 &lib = LibcryptoSha256::get();
        if (!lib.ok() && why) *why = lib.why();
        return lib.ok();
    }

    // Compares two MACs in time independent of where they differ (what CRYPTO_memcmp does).
    static bool equal(const void *a, const void *b, size_t len) {
        const auto *x = static_cast<const volatile uint8_t *>(a);
        const auto *y = static_cast<const volatile uint8_t *>(b);
        uint8_t diff = 0;
        for (size_t i = 0; i < len; ++i) diff |= static_cast<uint8_t>(x[i] ^ y[i]);
        return diff == 0;
    }

    HmacSha256(const uint8_t *key, size_t len) : lib_(LibcryptoSha256::get()) {
        if (!lib_.ok()) return;
        uint8_t padded[kBlock] = {};
        if (len > kBlock)
            digest(key, len, padded);  // RFC 2104: a key longer than a block is hashed first
        else if (len > 0)
            std::memcpy(padded, key, len);
        keyed(&inner_key_, padded, 0x36);
        keyed(&outer_key_, padded, 0x5c);
        secure_zero(padded, sizeof padded);
        begin();
    }
    ~HmacSha256() {
        secure_zero(&inner_key_, sizeof inner_key_);
        secure_zero(&outer_key_, sizeof outer_key_);
        secure_zero(&message_, sizeof message_);
    }
    HmacSha256(const HmacSha256 &) = delete;
    HmacSha256 &operator=(const HmacSha256 &) = delete;

    // Starts a message under the key (the keyed inner and outer states are kept, so a message
    // costs its own blocks only).
    void begin() { message_ = inner_key_; }
    void update(const void *data, size_t len) {
        if (len && lib_.ok()) lib_.update(&message_, data, len);
    }
    void finish(uint8_t out[kBytes]) {
        if (!lib_.ok()) return unverifiable(out);
        uint8_t inner[kBytes];
        lib_.finish(inner, &message_);
        SHA256_CTX outer = outer_key_;
        lib_.update(&outer, inner, sizeof inner);
        lib_.finish(out, &outer);
        secure_zero(&outer, sizeof outer);
        secure_zero(inner, sizeof inner);
    }

    // One message: HMAC(key, data).
    static void once(const uint8_t *key, size_t key_len, const void *data, size_t len, uint8_t out[kBytes]) {
        HmacSha256 mac(key, key_len);
        mac.update(data, len);
        mac.finish(out);
    }

private:
    static constexpr size_t kBlock = 64;

    void digest(const uint8_t *data, size_t len, uint8_t out[kBytes]) const {
        SHA256_CTX ctx;
        lib_.init(&ctx);
        lib_.update(&ctx, data, len);
        lib_.finish(out, &ctx);
        secure_zero(&ctx, sizeof ctx);
    }
    void keyed(SHA256_CTX *ctx, const uint8_t (&key)[kBlock], uint8_t pad) const {
        uint8_t block[kBlock];
        for (size_t i = 0; i < kBlock; ++i) block[i] = key[i] ^ pad;
        lib_.init(ctx);
        lib_.update(ctx, block, kBlock);
        secure_zero(block, sizeof block);
    }
    // Without libcrypto: bytes nobody can predict, so a check against them fails. A process that
    // has neither a hash nor the kernel's random bytes cannot authenticate anything: it stops.
    static void unverifiable(uint8_t out[kBytes]) {
        size_t have = 0;
        while (have < kBytes) {
            const ssize_t n = ::getrandom(out + have, kBytes - have, 0);
            if (n > 0) have += static_cast<size_t>(n);
            else if (n < 0 && errno != EINTR) std::abort();
        }
    }

    const LibcryptoSha256 &lib_;
    SHA256_CTX inner_key_{}, outer_key_{};  // after the padded key's block
    SHA256_CTX message_{};
};

}  // namespace plexus::sdk

#pragma GCC diagnostic pop
