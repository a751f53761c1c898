// The target's side of passive synchronisation: who holds this window's lock, who waits, and
// when a holder's epoch is over. Requests are granted strictly in arrival order (a shared request
// behind a waiting exclusive one waits too, so no exclusive request starves); a holder is released
// only when its unlock has announced how many operations it sent and that many have arrived.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <vector>

namespace plexus::osc_rdma {

// What a call changed: origins now holding the lock (to be sent a grant) and origins released
// (to be told their unlock is complete), in order.
struct LockEvents {
    std::vector<int> granted;
    std::vector<int> released;
};

class LockQueue {
public:
    // type: PLEXUS_OSC_LOCK_EXCLUSIVE or PLEXUS_OSC_LOCK_SHARED. nocheck (MPI_MODE_NOCHECK): the
    // origin holds the lock from now on, with no grant (it promised that nobody conflicts).
    LockEvents request(int origin, int type, bool nocheck = false);
    // n operations of origin were applied (before its request arrived: an origin that took the
    // lock with nocheck sends without waiting, and a message may overtake another).
    LockEvents arrived(int origin, uint32_t n = 1);
    // origin's unlock: it sent count operations under the lock.
    LockEvents unlock(int origin, uint32_t count);

    bool holds(int origin) const { return find(origin) >= 0; }
    size_t holders() const { return holders_.size(); }
    size_t waiting() const { return waiting_.size(); }

private:
    struct Holder {
        int origin;
        int type;
        uint64_t arrived = 0;
        int64_t announced = -1;  // -1: still in its epoch
    };
    struct Waiter {
        int origin;
        int type;
    };

    int find(int origin) const;
    Holder &early(int origin);
    bool grantable(int type) const;
    void release_finished(LockEvents *ev);
    void grant_waiting(LockEvents *ev);

    std::vector<Holder> holders_;
    std::vector<Holder> early_;  // arrivals and unlocks of origins not (yet) holding the lock
    std::deque<Waiter> waiting_;
};

}  // namespace plexus::osc_rdma
