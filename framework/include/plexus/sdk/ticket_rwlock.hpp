// A fair reader-writer lock on plain words in shared memory (a window's passive-target lock that
// origins of several processes take and release themselves). Tickets keep arrival order: a shared
// locker waits only for the exclusive holders and waiters that came before it, an exclusive one
// for everybody before it, so neither kind can starve the other, and consecutive shared lockers
// hold the lock together.
//
// The three counters (the ticket lock of Mellor-Crummey and Scott, in the reader-writer form):
// next hands out tickets; read is the ticket that may enter next as a reader (a reader moves it
// on as it enters, a writer as it leaves); write is the ticket that may enter next as a writer
// (every holder moves it on as it leaves). A writer with ticket t enters once every ticket before
// t has left; a reader with ticket t once the writers before it have left. 32-bit counters wrap;
// only equality is asked, so 2^32 lockers may wait at once.
//
// A ticket once drawn must be used: there is no withdrawing from the queue (the ones behind would
// wait for it forever), so a wait for the turn is not bounded here.
#pragma once

#include <cstdint>

#include <plexus/sdk/shared_word.hpp>

namespace plexus::sdk {

struct TicketRwWords {
    uint32_t next;
    uint32_t read;
    uint32_t write;
    uint32_t reserved;
};

class TicketRwLock {
public:
    explicit TicketRwLock(TicketRwWords &w) : w_(w) {}

    // The caller's place in the queue.
    uint32_t draw() { return __atomic_fetch_add(&w_.next, 1u, __ATOMIC_RELAXED); }

    // Shared: once shared_turn(t) holds, enter_shared(); acquires what the writers before wrote.
    bool shared_turn(uint32_t t) { return load_acquire(w_.read) == t; }
    void enter_shared() { __atomic_fetch_add(&w_.read, 1u, __ATOMIC_RELAXED); }
    void unlock_shared() { __atomic_fetch_add(&w_.write, 1u, __ATOMIC_RELEASE); }

    // Exclusive: the lock is held once exclusive_turn(t) holds.
    bool exclusive_turn(uint32_t t) { return load_acquire(w_.write) == t; }
    void unlock_exclusive() {
        __atomic_fetch_add(&w_.read, 1u, __ATOMIC_RELEASE);
        __atomic_fetch_add(&w_.write, 1u, __ATOMIC_RELEASE);
    }

    // Whole acquisitions through a waiting function of the shape wait(pred) -> int (0: success),
    // e.g. one polling pred through the progress engine.
    template <class Wait>
    int lock_shared(Wait &&wait) {
        const uint32_t t = draw();
        if (int rc = wait([this, t] { return shared_turn(t); })) return rc;
        enter_shared();
        return 0;
    }
    template <class Wait>
    int lock_exclusive(Wait &&wait) {
        const uint32_t t = draw();
        return wait([this, t] { return exclusive_turn(t); });
    }

private:
    TicketRwWords &w_;
};

}  // namespace plexus::sdk
