// Helpers for the datagram facility's tests: endpoints opened through the C table with a test
// key, a raw UDP socket to capture, alter and replay datagrams, and parameters for one test.
#pragma once

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <plexus/dgram.h>

#include "fake_backend.h"
#include "runtime/dgram/dgram_params.h"
#include "runtime/dgram/dgram_services.h"
#include "runtime/runtime.h"

namespace plexus::test::dgram {

using Bytes = std::vector<uint8_t>;

inline const plexus_dgram_services_t &dg() { return plexus::runtime::dgram::kServices; }

inline Bytes test_key(uint8_t fill) { return Bytes(32, fill); }

// An endpoint, closed with its owner.
class Ep {
public:
    Ep() = default;
    Ep(const Ep &) = delete;
    Ep &operator=(const Ep &) = delete;
    Ep(Ep &&o) noexcept : p(o.p), why(o.why) { o.p = nullptr; }
    ~Ep() {
        if (p) dg().close(p);
    }
    plexus_dgram_endpoint_t *p = nullptr;
    plexus_reason_t why{};

    Bytes address() const {
        Bytes a(PLEXUS_DGRAM_ADDR_MAX);
        size_t len = a.size();
        EXPECT_EQ(dg().address(p, a.data(), &len), PLEXUS_SUCCESS);
        a.resize(len);
        return a;
    }
    plexus_dgram_stats_t stats() const {
        plexus_dgram_stats_t s{};
        s.struct_size = sizeof s;
        EXPECT_EQ(dg().stats(p, &s), PLEXUS_SUCCESS);
        return s;
    }
    uint64_t dropped(plexus_dgram_drop_t why_) const { return stats().dropped[why_]; }
    int send(const Bytes &to, const Bytes &msg) { return dg().send(p, to.data(), to.size(), msg.data(), msg.size()); }
    // The next message within timeout_ms into *msg; a longer one than cap is fetched again
    // with the length recv reported, unless cap was asked for explicitly.
    int recv(Bytes *msg, int timeout_ms, plexus_dgram_recv_info_t *info = nullptr, size_t cap = 0) {
        plexus_dgram_recv_info_t local{};
        if (!info) info = &local;
        info->struct_size = sizeof *info;
        msg->resize(cap ? cap : 65536);
        int rc = dg().recv(p, msg->data(), msg->size(), info, timeout_ms);
        if (rc == PLEXUS_ERR_OUT_OF_RESOURCE && cap == 0) {
            msg->resize(info->len);
            rc = dg().recv(p, msg->data(), msg->size(), info, 0);
        }
        msg->resize(rc == PLEXUS_SUCCESS ? info->len : 0);
        return rc;
    }
};

struct OpenOptions {
    Bytes key = test_key(0x5a);
    std::string label = "test";
    uint32_t sender = 0;
    uint32_t epoch = 0;
    uint32_t transport = PLEXUS_DGRAM_UDP;
    const char *interface = "lo";
};

inline int open_ep(const OpenOptions &o, Ep *ep) {
    plexus_dgram_open_args_t a{};
    a.struct_size = sizeof a;
    a.transport = o.transport;
    a.interface = o.interface;
    a.key = o.key.data();
    a.key_len = o.key.size();
    a.label = o.label.c_str();
    a.sender = o.sender;
    a.epoch = o.epoch;
    return dg().open(&a, &ep->p, &ep->why);
}

inline Ep open_udp(uint32_t sender, OpenOptions o = {}) {
    o.sender = sender;
    Ep ep;
    EXPECT_EQ(open_ep(o, &ep), PLEXUS_SUCCESS) << ep.why.text;
    return ep;
}

// Datagram parameters for one test. Parameters are read once per process, so a test cannot set
// them through the environment: a runtime started over a fake backend carries them to every
// endpoint opened while it runs, as the real runtime carries the user's.
class ScopedSettings {
public:
    explicit ScopedSettings(const plexus::runtime::dgram::Settings &dgram) {
        plexus::runtime::RuntimeSettings settings;
        settings.dgram = dgram;
        auto backend = std::make_unique<plexus::test::FakeBackend>(plexus::test::launched_job(0, 1));
        backend->job_strings[plexus::runtime::Runtime::kSecretKey] = std::string(64, 'e');
        started_ = plexus::runtime::Runtime::init(settings, std::move(backend)).is_ok();
        EXPECT_TRUE(started_) << "no runtime to carry the datagram settings";
    }
    ScopedSettings(const ScopedSettings &) = delete;
    ScopedSettings &operator=(const ScopedSettings &) = delete;
    ~ScopedSettings() {
        if (started_) plexus::runtime::Runtime::finalize();
    }

private:
    bool started_ = false;
};

// A plain UDP socket on loopback: receives what an endpoint sends it, sends anything anywhere.
class RawSocket {
public:
    RawSocket() {
        fd_ = ::socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
        sockaddr_in a{};
        a.sin_family = AF_INET;
        a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        ::bind(fd_, reinterpret_cast<sockaddr *>(&a), sizeof a);
        socklen_t len = sizeof a;
        ::getsockname(fd_, reinterpret_cast<sockaddr *>(&a), &len);
        addr_ = Bytes(8);
        addr_[0] = 1;  // UDP/IPv4, version 1, port, address (docs/datagrams.md)
        addr_[1] = 1;
        std::memcpy(&addr_[2], &a.sin_port, 2);
        std::memcpy(&addr_[4], &a.sin_addr, 4);
    }
    ~RawSocket() { ::close(fd_); }
    const Bytes &address() const { return addr_; }

    // The next datagram within timeout_ms (empty when none).
    Bytes capture(int timeout_ms = 2000) {
        pollfd p{fd_, POLLIN, 0};
        if (::poll(&p, 1, timeout_ms) <= 0) return {};
        Bytes b(70000);
        const ssize_t n = ::recv(fd_, b.data(), b.size(), 0);
        b.resize(n > 0 ? static_cast<size_t>(n) : 0);
        return b;
    }
    void send_to(const Bytes &to, const Bytes &datagram) {
        sockaddr_in a{};
        a.sin_family = AF_INET;
        std::memcpy(&a.sin_port, &to[2], 2);
        std::memcpy(&a.sin_addr, &to[4], 4);
        ASSERT_GE(::sendto(fd_, datagram.data(), datagram.size(), 0, reinterpret_cast<sockaddr *>(&a), sizeof a), 0);
    }

private:
    int fd_ = -1;
    Bytes addr_;
};

inline Bytes pattern(size_t n, uint32_t seed) {
    Bytes b(n);
    uint32_t x = seed * 2654435761u + 1;
    for (auto &c : b) {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        c = static_cast<uint8_t>(x);
    }
    return b;
}

}  // namespace plexus::test::dgram
