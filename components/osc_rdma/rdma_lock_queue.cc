#include "rdma_lock_queue.h"

#include <plexus/osc.h>

namespace plexus::osc_rdma {

int LockQueue::find(int origin) const {
    for (size_t i = 0; i < holders_.size(); ++i)
        if (holders_[i].origin == origin) return int(i);
    return -1;
}

bool LockQueue::grantable(int type) const {
    if (holders_.empty()) return true;
    if (type == PLEXUS_OSC_LOCK_EXCLUSIVE) return false;
    return holders_.front().type == PLEXUS_OSC_LOCK_SHARED;  // holders are all of one type
}

// Strict FIFO: the head waits, so does everybody behind it.
void LockQueue::grant_waiting(LockEvents *ev) {
    while (!waiting_.empty() && grantable(waiting_.front().type)) {
        const Waiter w = waiting_.front();
        waiting_.pop_front();
        holders_.push_back(Holder{w.origin, w.type});
        ev->granted.push_back(w.origin);
    }
}

void LockQueue::release_finished(LockEvents *ev) {
    for (size_t i = 0; i < holders_.size();) {
        const Holder &h = holders_[i];
        if (h.announced >= 0 && h.arrived >= uint64_t(h.announced)) {
            ev->released.push_back(h.origin);
            holders_.erase(holders_.begin() + long(i));
        } else {
            ++i;
        }
    }
    grant_waiting(ev);
}

LockEvents LockQueue::request(int origin, int type, bool nocheck) {
    LockEvents ev;
    if (!nocheck) {
        waiting_.push_back(Waiter{origin, type});
        grant_waiting(&ev);
        return ev;
    }
    Holder h{origin, type};
    for (size_t i = 0; i < early_.size(); ++i)
        if (early_[i].origin == origin) {
            h.arrived = early_[i].arrived;
            h.announced = early_[i].announced;
            early_.erase(early_.begin() + long(i));
            break;
        }
    holders_.push_back(h);
    release_finished(&ev);
    return ev;
}

LockQueue::Holder &LockQueue::early(int origin) {
    for (Holder &h : early_)
        if (h.origin == origin) return h;
    early_.push_back(Holder{origin, 0});
    return early_.back();
}

LockEvents LockQueue::arrived(int origin, uint32_t n) {
    LockEvents ev;
    if (int i = find(origin); i >= 0) {
        holders_[size_t(i)].arrived += n;
        release_finished(&ev);
    } else if (n > 0) {
        early(origin).arrived += n;
    }
    return ev;
}

LockEvents LockQueue::unlock(int origin, uint32_t count) {
    LockEvents ev;
    if (int i = find(origin); i >= 0) {
        holders_[size_t(i)].announced = int64_t(count);
        release_finished(&ev);
    } else {
        early(origin).announced = int64_t(count);
    }
    return ev;
}

}  // namespace plexus::osc_rdma
