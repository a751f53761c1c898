// The idle steps of a wait: spin, yield, sleep with doubling intervals up to the cap (a higher
// one once the wait has proved long).
#include "runtime/backoff.h"

#include <sched.h>
#include <time.h>

#include <algorithm>
#include <limits>

namespace plexus::runtime {
namespace {

void real_yield() { sched_yield(); }

void real_sleep_us(uint32_t us) {
    timespec ts{static_cast<time_t>(us / 1000000), static_cast<long>(us % 1000000) * 1000};
    // A signal cutting the sleep short is harmless: the caller polls again anyway.
    nanosleep(&ts, nullptr);
}

}  // namespace

BackoffPolicy BackoffPolicy::pure_spin() {
    BackoffPolicy p;
    p.spin_count = std::numeric_limits<uint32_t>::max();
    p.yield_count = 0;
    p.max_sleep_us = 0;
    return p;
}

BackoffPolicy BackoffPolicy::yielding_at_once() const {
    BackoffPolicy p = *this;
    p.spin_count = 0;
    return p;
}

BackoffPolicy BackoffPolicy::for_oversubscribed_node(bool keep_yield_count) const {
    BackoffPolicy p = yielding_at_once();
    if (!keep_yield_count) p.yield_count = std::min(p.yield_count, kOversubscribedYields);
    return p;
}

void Backoff::give_away() {
    const uint64_t past_spin = idle_polls_ - policy_.spin_count;
    if (past_spin <= policy_.yield_count || policy_.max_sleep_us == 0) {
        ++stats_->yields;
        (hooks_.yield ? hooks_.yield : real_yield)();
        return;
    }
    const bool long_wait = policy_.long_sleep_us > policy_.max_sleep_us && asleep_us_ >= policy_.long_after_us;
    const uint32_t cap = long_wait ? policy_.long_sleep_us : policy_.max_sleep_us;
    sleep_us_ = sleep_us_ == 0 ? std::max<uint32_t>(1, policy_.min_sleep_us)
                               : static_cast<uint32_t>(std::min<uint64_t>(uint64_t{sleep_us_} * 2, cap));
    sleep_us_ = std::min(sleep_us_, cap);
    asleep_us_ += sleep_us_;
    ++stats_->sleeps;
    stats_->slept_us += sleep_us_;
    (hooks_.sleep_us ? hooks_.sleep_us : real_sleep_us)(sleep_us_);
}

void Backoff::reset() {
    if (idle_polls_ > policy_.spin_count) ++stats_->resets;
    idle_polls_ = 0;
    sleep_us_ = 0;
    asleep_us_ = 0;
}

}  // namespace plexus::runtime
