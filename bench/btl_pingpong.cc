// A standalone driver for a BTL without any MPI layer: under plexrun with 2 ranks it starts the
// runtime and the MCA core as MPI_Init would, takes the btl module named on the command line
// (default sm) and measures the raw BTL: what an idle poll costs, ping-pong half round-trip
// latency of send, streaming of sends, and single-copy get bandwidth. A measuring tool beside the
// benchmarks, not a test, since it reaches into the core as no component may (make check builds
// it): plexrun -n 2 bench/btl_pingpong [btl] [iterations]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <plexus/btl.h>

#include "mca/mca_core.h"
#include "runtime/progress.h"
#include "runtime/runtime.h"

using namespace plexus;

namespace {

constexpr uint8_t kTagPing = 1;
constexpr uint8_t kTagHandle = 2;
constexpr uint8_t kTagAck = 3;

struct State {
    std::vector<char> sink = std::vector<char>(1 << 20);  // where a receive copies to, as the PML does
    uint64_t received = 0;
    uint64_t acks = 0;
    size_t last_len = 0;
    plexus_btl_mem_handle_t handle{};  // the peer's registered buffer
    uint64_t remote_addr = 0;           // and its address
    uint64_t handles = 0;               // handles received (one per get_gbs)
};

void on_ping(void *ctx, const plexus_btl_recv_desc_t *m) {
    auto *s = static_cast<State *>(ctx);
    ++s->received;
    s->last_len = m->len;
    std::memcpy(s->sink.data(), m->data, std::min(m->len, s->sink.size()));
}
void on_ack(void *ctx, const plexus_btl_recv_desc_t *) { ++static_cast<State *>(ctx)->acks; }
void on_handle(void *ctx, const plexus_btl_recv_desc_t *m) {
    auto *s = static_cast<State *>(ctx);
    std::memcpy(&s->handle, m->data, sizeof s->handle);
    std::memcpy(&s->remote_addr, static_cast<const char *>(m->data) + sizeof s->handle, sizeof s->remote_addr);
    ++s->handles;
}

double now() { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }

struct Driver {
    runtime::ProgressEngine &engine;
    plexus_btl_module_t *m;
    plexus_btl_endpoint_t *peer;
    State s;
    uint64_t handles_used = 0;

    void send(uint8_t tag, const void *data, size_t len) {
        while (m->send(m, peer, tag, data, len, nullptr, 0) == PLEXUS_ERR_AGAIN) engine.poll();
    }
    void wait_received(uint64_t n) {
        engine.wait_until([&] { return s.received >= n; });
    }

    // Half round trip of len-byte messages.
    double latency_us(size_t len, int iters, bool first) {
        std::vector<char> buf(len, 'x');
        const int warm = iters / 10 + 10;
        double t0 = 0;
        for (int i = 0; i < warm + iters; ++i) {
            if (i == warm) t0 = now();
            if (first) {
                send(kTagPing, buf.data(), len);
                wait_received(s.received + 1);
            } else {
                wait_received(s.received + 1);
                send(kTagPing, buf.data(), len);
            }
        }
        return (now() - t0) / iters / 2 * 1e6;
    }

    // Streams count messages of len bytes, one ack at the end: GB/s.
    double stream_gbs(size_t len, int count, bool first) {
        std::vector<char> buf(len, 'y');
        const uint64_t acks = s.acks;
        const double t0 = now();
        if (first) {
            for (int i = 0; i < count; ++i) send(kTagPing, buf.data(), len);
            engine.wait_until([&] { return s.acks > acks; });
        } else {
            wait_received(s.received + static_cast<uint64_t>(count));
            send(kTagAck, "", 0);
        }
        return static_cast<double>(len) * count / (now() - t0) / 1e9;
    }

    // The second rank registers a buffer of len bytes and sends its handle; the first reads it
    // reps times by get: GB/s (on the first rank).
    double get_gbs(size_t len, bool first) {
        std::vector<char> buf(len, 'g');
        if (!first) {
            plexus_btl_mem_handle_t h{};
            m->register_mem(m, buf.data(), len, &h);
            const uint64_t addr = reinterpret_cast<uint64_t>(buf.data());
            char msg[sizeof h + sizeof addr];
            std::memcpy(msg, &h, sizeof h);
            std::memcpy(msg + sizeof h, &addr, sizeof addr);
            const uint64_t acks = s.acks;
            send(kTagHandle, msg, sizeof msg);
            engine.wait_until([&] { return s.acks > acks; });
            return 0;
        }
        // The handle may have come in while this rank was still waiting for the last ack.
        const uint64_t want = ++handles_used;
        engine.wait_until([&] { return s.handles >= want; });
        const int reps = static_cast<int>(std::max<size_t>(10, (size_t{1} << 30) / len));
        const double t0 = now();
        for (int i = 0; i < reps; ++i) {
            if (int rc = m->get(m, peer, buf.data(), len, &s.handle, s.remote_addr, nullptr, nullptr)) {
                std::printf("get failed: %d\n", rc);
                break;
            }
        }
        const double gbs = static_cast<double>(len) * reps / (now() - t0) / 1e9;
        send(kTagAck, "", 0);
        return gbs;
    }
};

}  // namespace

int main(int argc, char **argv) {
    const std::string want = argc > 1 ? argv[1] : "sm";
    const int iters = argc > 2 ? std::atoi(argv[2]) : 100000;
    runtime::RuntimeSession rt;
    if (!rt.status()) {
        std::fprintf(stderr, "btl_pingpong: runtime: %s\n", rt.status().message.c_str());
        return 1;
    }
    const uint32_t rank = rt->job().rank;
    if (rt->job().size != 2) {
        std::fprintf(stderr, "btl_pingpong: run with 2 ranks\n");
        return 1;
    }
    int status = 0;
    {
        mca::McaCore core(mca::CoreOptions::from_process());
        if (!core.init()) return 1;
        if (!rt->fence_init()) return 1;
        mca::Selection sel = core.select("btl", nullptr);
        plexus_btl_module_t *m = nullptr;
        for (size_t i : sel.selected)
            if (sel.at(i).component->name == want) m = static_cast<plexus_btl_module_t *>(sel.at(i).module);
        if (!m) {
            std::fprintf(stderr, "btl_pingpong: btl %s not selected\n", want.c_str());
            return 1;
        }
        plexus_btl_proc_t procs[2] = {{0, 0, rt->job().nspace.c_str()}, {1, 1, rt->job().nspace.c_str()}};
        plexus_btl_endpoint_t *eps[2] = {};
        m->add_procs(m, 2, procs, eps);
        Driver d{core.progress(), m, eps[1 - rank], {}};
        m->register_recv(m, kTagPing, on_ping, &d.s);
        m->register_recv(m, kTagAck, on_ack, &d.s);
        m->register_recv(m, kTagHandle, on_handle, &d.s);
        rt->fence();
        const bool first = rank == 0;
        // What a poll costs when nothing arrives (every registered progress callback once).
        constexpr int kIdlePolls = 1000000;
        const double t_idle = now();
        for (int i = 0; i < kIdlePolls; ++i) d.engine.poll();
        const double idle_ns = (now() - t_idle) / kIdlePolls * 1e9;
        rt->fence();
        if (first) std::printf("idle poll: %.1f ns\n", idle_ns);
        for (size_t len : {0, 8, 64, 256, 1024, 4000}) {
            const double us = d.latency_us(len, len > 1024 ? iters / 4 : iters, first);
            if (first) std::printf("latency %6zu B: %.3f us\n", len, us);
        }
        for (size_t len : {size_t{4000}, m->max_send_size}) {
            const double gbs = d.stream_gbs(len, 20000, first);
            if (first) std::printf("stream  %6zu B: %.2f GB/s\n", len, gbs);
        }
        if (m->caps & PLEXUS_BTL_CAP_GET) {
            for (size_t len : {size_t{4096}, size_t{16384}, size_t{65536}, size_t{1} << 20, size_t{4} << 20}) {
                const double gbs = d.get_gbs(len, first);
                if (first) std::printf("get     %7zu B: %.2f GB/s\n", len, gbs);
            }
        }
        plexus_btl_fast_stats_t fs{};
        if (m->fast_channel_stats && m->fast_channel_stats(m, &fs) == PLEXUS_SUCCESS)
            std::printf("rank %u: fast sends %llu, slow sends %llu\n", rank,
                        static_cast<unsigned long long>(fs.fast_sends), static_cast<unsigned long long>(fs.slow_sends));
        rt->fence();
    }
    return status;
}
