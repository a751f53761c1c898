// Request/response over the datagram facility's reliable layer (DGRAM 1.1) between two processes
// on loopback: round-trip time (an empty request answered empty) and exchange time (a request of
// N bytes answered with N bytes) against message size and injected loss, as a table and CSV.
//   dgram_rr [--sizes 0,64,1024,...] [--loss 0,0.1,0.3,0.5] [--iters N] [--mtu BYTES] [--csv FILE]
//            [--verbose LEVEL]
// Each loss rate runs in a runtime of its own (the parameters are read once per runtime); the
// responder is a forked child that answers every request with as many bytes.
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include <plexus/dgram.h>

#include "runtime/dgram/dgram_services.h"
#include "runtime/runtime.h"
#include "runtime/singleton_backend.h"

namespace {

using Clock = std::chrono::steady_clock;
namespace rt = plexus::runtime;
const plexus_dgram_services_t &dg() { return rt::dgram::kServices; }

struct Options {
    std::vector<size_t> sizes{0, 64, 1024, 16384, 65536, 262144, 1 << 20, 4 << 20};
    std::vector<double> loss{0, 0.1, 0.3, 0.5};
    int iters = 0;  // 0: by size and loss
    size_t mtu = 0;
    int verbose = 0;  // runtime_dgram_verbose for both sides
    std::string csv;
};

template <typename T>
std::vector<T> list_of(const char *text, T (*parse)(const char *)) {
    std::vector<T> out;
    std::string s(text);
    for (size_t at = 0; at <= s.size();) {
        const size_t comma = std::min(s.find(',', at), s.size());
        out.push_back(parse(s.substr(at, comma - at).c_str()));
        at = comma + 1;
    }
    return out;
}

size_t parse_size(const char *t) { return std::strtoull(t, nullptr, 10); }
double parse_double(const char *t) { return std::strtod(t, nullptr); }

bool parse(int argc, char **argv, Options *o) {
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : nullptr;
        if (!v) return false;
        if (a == "--sizes") o->sizes = list_of<size_t>(v, parse_size);
        else if (a == "--loss") o->loss = list_of<double>(v, parse_double);
        else if (a == "--iters") o->iters = std::atoi(v);
        else if (a == "--mtu") o->mtu = parse_size(v);
        else if (a == "--verbose") o->verbose = std::atoi(v);
        else if (a == "--csv") o->csv = v;
        else return false;
        ++i;
    }
    return true;
}

struct Side {
    plexus_dgram_endpoint_t *ep = nullptr;
    plexus_dgram_reliable_t *rel = nullptr;
    std::vector<uint8_t> addr;
};

struct ResponderState {
    Side *side;
    bool bye = false;
};

void answer(void *ctx, const void *data, size_t len, const plexus_dgram_peer_t *from) {
    auto *st = static_cast<ResponderState *>(ctx);
    if (from->request == 0) {
        st->bye = true;
        return;
    }
    const plexus_dgram_iov_t iov{data, len};  // as many bytes back
    dg().reliable_respond(st->side->rel, from, &iov, 1, nullptr);
}

bool open_side(uint32_t sender, plexus_dgram_message_fn_t fn, void *ctx, Side *s) {
    static const uint8_t key[32] = "plexus dgram bench shared key..";
    plexus_dgram_open_args_t a{};
    a.struct_size = sizeof a;
    a.transport = PLEXUS_DGRAM_UDP;
    a.interface = "lo";
    a.key = key;
    a.key_len = sizeof key;
    a.label = "bench_dgram";
    a.sender = sender;
    plexus_reason_t why{};
    if (dg().open(&a, &s->ep, &why) != PLEXUS_SUCCESS) {
        std::fprintf(stderr, "dgram_rr: open: %s\n", why.text);
        return false;
    }
    plexus_dgram_reliable_args_t r{};
    r.struct_size = sizeof r;
    r.handler = fn;
    r.ctx = ctx;
    if (dg().reliable_open(s->ep, &r, &s->rel, &why) != PLEXUS_SUCCESS) {
        std::fprintf(stderr, "dgram_rr: reliable_open: %s\n", why.text);
        return false;
    }
    s->addr.resize(PLEXUS_DGRAM_ADDR_MAX);
    size_t len = s->addr.size();
    dg().address(s->ep, s->addr.data(), &len);
    s->addr.resize(len);
    return true;
}

// The child: answers until told goodbye, then lingers to acknowledge retransmitted goodbyes.
[[noreturn]] void respond_forever(Side *side, ResponderState *st) {
    int fd = -1;
    dg().wait_fd(side->ep, &fd);
    // Polls a little, then sleeps in poll (1 ms at most, for its own timers): the two processes
    // share the machine's cores with whatever else runs.
    auto serve_until = [&](Clock::time_point end, bool stop_at_bye) {
        for (int idle = 0; Clock::now() < end && !(stop_at_bye && st->bye);) {
            if (dg().reliable_progress(side->rel) > 0) {
                idle = 0;
            } else if (++idle > 64) {
                pollfd p{fd, POLLIN, 0};
                (void)::poll(&p, 1, 1);
            }
        }
    };
    serve_until(Clock::now() + std::chrono::minutes(10), true);
    serve_until(Clock::now() + std::chrono::milliseconds(300), false);
    _exit(st->bye ? 0 : 3);
}

struct Row {
    double loss;
    size_t size;
    int iters;
    double median_us, mean_us, max_us;
    double retrans_per_exchange;
    double frag_rtt_us;
    uint64_t timeouts;
};

int iterations(const Options &o, size_t size, double loss) {
    if (o.iters > 0) return o.iters;
    int n = static_cast<int>(std::clamp<size_t>((16u << 20) / (size + 4096), 5, 300));
    return loss > 0 ? std::min(n, 60) : n;
}

plexus_dgram_reliable_stats_t stats_of(const Side &s) {
    plexus_dgram_reliable_stats_t st{};
    st.struct_size = sizeof st;
    dg().reliable_stats(s.rel, &st);
    return st;
}

bool measure(const Options &o, Side &client, const Side &server, size_t size, double loss, Row *row) {
    std::vector<uint8_t> msg(size);
    for (size_t i = 0; i < size; ++i) msg[i] = static_cast<uint8_t>(i * 131 + 7);
    const plexus_dgram_iov_t iov{msg.data(), msg.size()};
    const int n = iterations(o, size, loss);
    const plexus_dgram_reliable_stats_t before = stats_of(client);
    std::vector<double> us;
    for (int i = -1; i < n; ++i) {  // the first one warms up
        plexus_dgram_op_t *op = nullptr;
        const auto t0 = Clock::now();
        if (dg().reliable_request(client.rel, server.addr.data(), server.addr.size(), &iov, 1, 0, &op) != PLEXUS_SUCCESS ||
            dg().reliable_wait(client.rel, op, -1) != PLEXUS_SUCCESS) {
            std::fprintf(stderr, "dgram_rr: %zu bytes at loss %.2f: %s\n", size, loss,
                         op ? dg().op_error(op) : dg().reliable_last_error(client.rel));
            dg().op_free(op);
            return false;
        }
        const auto t1 = Clock::now();
        const void *data = nullptr;
        size_t len = 0;
        dg().op_response(op, &data, &len);
        if (len != size || (size && std::memcmp(data, msg.data(), size) != 0)) {
            std::fprintf(stderr, "dgram_rr: the response of %zu bytes differs\n", size);
            dg().op_free(op);
            return false;
        }
        dg().op_free(op);
        if (i >= 0) us.push_back(std::chrono::duration<double, std::micro>(t1 - t0).count());
    }
    const plexus_dgram_reliable_stats_t after = stats_of(client);
    std::sort(us.begin(), us.end());
    double sum = 0;
    for (double u : us) sum += u;
    *row = Row{loss, size, n, us[us.size() / 2], sum / us.size(), us.back(),
               double(after.retransmitted - before.retransmitted) / n,
               after.rtt_samples > before.rtt_samples
                   ? double(after.rtt_sum_us - before.rtt_sum_us) / double(after.rtt_samples - before.rtt_samples)
                   : 0.0,
               after.timeouts - before.timeouts};
    return true;
}

// One loss rate: a runtime carrying the parameters, the two sides, the child, the sizes.
bool run_loss(const Options &o, double loss, std::vector<Row> *rows) {
    rt::RuntimeSettings settings;
    settings.dgram.drop_rate = loss;
    settings.dgram.drop_seed = 11;
    settings.dgram.mtu = o.mtu;
    settings.dgram.verbose = o.verbose;
    if (rt::Status s = rt::Runtime::init(settings, std::make_unique<rt::SingletonBackend>()); !s) {
        std::fprintf(stderr, "dgram_rr: runtime: %s\n", s.message.c_str());
        return false;
    }
    // The child opens the responder's side and hands its address over a pipe, so that each
    // process holds only its own endpoint.
    int pipefd[2];
    if (::pipe(pipefd) != 0) return false;
    const pid_t child = ::fork();
    if (child == 0) {
        ::close(pipefd[0]);
        Side server;
        ResponderState st{&server};
        const bool opened = open_side(2, answer, &st, &server);
        const uint8_t len = opened ? static_cast<uint8_t>(server.addr.size()) : 0;
        if (::write(pipefd[1], &len, 1) != 1 || (len && ::write(pipefd[1], server.addr.data(), len) != len)) _exit(4);
        ::close(pipefd[1]);
        if (!opened) _exit(5);
        respond_forever(&server, &st);
    }
    ::close(pipefd[1]);
    Side client, server;
    uint8_t len = 0;
    bool ok = child > 0 && ::read(pipefd[0], &len, 1) == 1 && len > 0;
    if (ok) {
        server.addr.resize(len);
        ok = ::read(pipefd[0], server.addr.data(), len) == len;
    }
    ::close(pipefd[0]);
    ok = ok && open_side(1, nullptr, nullptr, &client);
    for (size_t size : o.sizes) {
        Row row;
        if (!ok || !(ok = measure(o, client, server, size, loss, &row))) break;
        rows->push_back(row);
        // A fragment's round trip is measured only from acks; responses acknowledge small
        // requests, so there may be none.
        char rtt[32] = "-";
        if (row.frag_rtt_us > 0) std::snprintf(rtt, sizeof rtt, "%.1f", row.frag_rtt_us);
        std::printf("%6.0f%% %10zu %6d %12.1f %12.1f %12.1f %10.2f %12s %8llu\n", loss * 100, size, row.iters,
                    row.median_us, row.mean_us, row.max_us, row.retrans_per_exchange, rtt,
                    static_cast<unsigned long long>(row.timeouts));
        std::fflush(stdout);
    }
    if (child > 0 && client.rel) {
        plexus_dgram_op_t *bye = nullptr;
        dg().reliable_send(client.rel, server.addr.data(), server.addr.size(), nullptr, 0, 5000, &bye);
        dg().reliable_wait(client.rel, bye, -1);
        dg().op_free(bye);
        int status = 0;
        ::waitpid(child, &status, 0);
        ok = ok && WIFEXITED(status) && WEXITSTATUS(status) == 0;
    } else if (child > 0) {
        ::kill(child, SIGTERM);  // no client to say goodbye
        ::waitpid(child, nullptr, 0);
    }
    if (client.rel) dg().reliable_close(client.rel);
    if (client.ep) dg().close(client.ep);
    rt::Runtime::finalize();
    return ok;
}

}  // namespace

int main(int argc, char **argv) {
    Options o;
    if (!parse(argc, argv, &o)) {
        std::fprintf(stderr, "usage: dgram_rr [--sizes N,...] [--loss P,...] [--iters N] [--mtu BYTES] [--csv FILE] [--verbose N]\n");
        return 2;
    }
    double load[3] = {0, 0, 0};
    if (::getloadavg(load, 3) < 1) load[0] = -1;
    std::printf("# reliable request/response over UDP loopback, two processes; load average %.2f at start\n", load[0]);
    std::printf("# loss      bytes  iters   median(us)     mean(us)      max(us) retx/exch frag_rtt(us) timeouts\n");
    std::vector<Row> rows;
    bool ok = true;
    for (double loss : o.loss) ok = run_loss(o, loss, &rows) && ok;
    if (!o.csv.empty()) {
        FILE *f = std::fopen(o.csv.c_str(), "w");
        if (!f) {
            std::perror(o.csv.c_str());
            return 1;
        }
        std::fprintf(f, "loss,bytes,iters,median_us,mean_us,max_us,retransmissions_per_exchange,fragment_rtt_us,timeouts,load\n");
        for (const Row &r : rows)
            std::fprintf(f, "%.2f,%zu,%d,%.1f,%.1f,%.1f,%.3f,%.1f,%llu,%.2f\n", r.loss, r.size, r.iters, r.median_us,
                         r.mean_us, r.max_us, r.retrans_per_exchange, r.frag_rtt_us,
                         static_cast<unsigned long long>(r.timeouts), load[0]);
        std::fclose(f);
    }
    return ok ? 0 : 1;
}
