// Simulated loss for tests (runtime_dgram_drop_rate): a seeded choice per arriving datagram, so
// that a test's losses repeat from run to run.
#pragma once

#include <cstdint>
#include <random>

namespace plexus::runtime::dgram {

class LossInjector {
public:
    // stream separates endpoints (their sender ids), so that receivers do not lose in lockstep.
    LossInjector(double rate, uint64_t seed, uint64_t stream)
        : rate_(rate), rng_(seed ^ (stream * 0x9E3779B97F4A7C15ull)) {}

    bool drop() { return rate_ > 0.0 && (rate_ >= 1.0 || uniform_(rng_) < rate_); }

private:
    double rate_;
    std::mt19937_64 rng_;
    std::uniform_real_distribution<double> uniform_{0.0, 1.0};
};

}  // namespace plexus::runtime::dgram
