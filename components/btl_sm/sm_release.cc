// btl_sm: what peers that left give back. A process that spawns and disconnects jobs (issue 19:
// 1,000 spawn / exchange / disconnect cycles) attaches a new peer per child; without this, every
// child would keep a slot of this process's directory (64 spare ones: the 65th child could not
// reach its parent) and its whole segment mapped here (MAP_POPULATE: 2.4 MB of memory each).
//
// A peer is given back once the upper layer deleted it (del_procs) and its process has ended:
// a process that ended sends nothing more, and what it sent before is in the FIFO, which is
// drained first. Then its directory slot here is freed for the next attacher (slots are taken
// by CAS, sm_module.cc), the fast box granted to it is taken back, its segment unmapped, and the
// Endpoint itself freed: after del_procs the upper layer holds no pointer to it (btl.h), and a
// process of the same name cannot come back. Until its process ends the object stays, since
// the peer may still write into our FIFO and its slot must keep resolving to "deleted".
// Checked in housekeeping, at most every kReleaseCheckNs, one kill(pid, 0) per deleted peer.
#include <signal.h>

#include <algorithm>
#include <cerrno>
#include <ctime>
#include <iterator>

#include "sm_module.h"

namespace plexus::btl_sm {
namespace {

constexpr int64_t kReleaseCheckNs = 10'000'000;  // 10 ms

int64_t now_ns() {
    timespec ts;
    ::clock_gettime(CLOCK_MONOTONIC, &ts);
    return int64_t{ts.tv_sec} * 1'000'000'000 + ts.tv_nsec;
}

// A zombie still exists for kill(): its parent (plexrun) reaps it at once.
bool process_ended(int32_t pid) { return pid > 0 && ::kill(pid, 0) != 0 && errno == ESRCH; }

}  // namespace

size_t SmModule::mapped_peers() const {
    return static_cast<size_t>(
        std::count_if(endpoints_.begin(), endpoints_.end(), [](const auto &ep) { return static_cast<bool>(ep->segment); }));
}

int SmModule::release_ended_peers() {
    if (released_.empty()) return 0;
    const int64_t now = now_ns();
    if (now < next_release_check_ns_) return 0;
    next_release_check_ns_ = now + kReleaseCheckNs;
    std::vector<Endpoint *> ended;
    for (Endpoint *ep : released_)
        if (ep->deleted && process_ended(ep->pid)) ended.push_back(ep);
    if (ended.empty()) return 0;
    // What they sent before ending is in the FIFO: take it out (kept with the deleted endpoint,
    // which goes now) and return the fragments while their segments are still mapped.
    int events = 0;
    for (int n; (n = poll_fifo()) > 0;) events += n;
    for (Endpoint *ep : ended) release(ep);
    return events + static_cast<int>(ended.size());
}

void SmModule::release(Endpoint *ep) {
    const uint64_t tag = ep->segment.tag();
    DirEntry *dir = directory(segment_.base(), *header_);
    for (uint32_t s = 0; s < header_->dir_cap; ++s)
        if (load_acquire(dir[s].ready) == kDirReady && dir[s].segment.tag == tag) {
            by_slot_[s] = nullptr;
            store_release(dir[s].ready, kDirFree);
        }
    if (ep->in_box >= 0) take_back_box(ep, static_cast<uint32_t>(ep->in_box));
    control_queue_.erase(std::remove_if(control_queue_.begin(), control_queue_.end(),
                                        [ep](const QueuedControl &c) { return c.ep == ep; }),
                         control_queue_.end());
    // What points into the peer's segment goes before the mapping does (the members would be
    // destroyed the other way round).
    ep->out = OutBox{};
    ep->fifo_unread.clear();
    ep->fifo = FifoProducer();
    ep->header = nullptr;
    ep->segment.reset();
    // A slot this process resolved to ep before the peer reattached under another tag.
    std::replace(by_slot_.begin(), by_slot_.end(), ep, static_cast<Endpoint *>(nullptr));
    // A process of the same name cannot come back; a new one (a pid reused) is attached afresh.
    for (auto it = by_proc_.begin(); it != by_proc_.end();)
        it = it->second == ep ? by_proc_.erase(it) : std::next(it);
    released_.erase(std::remove(released_.begin(), released_.end(), ep), released_.end());
    ++peers_released_;
    host_->log(self_, PLEXUS_LOG_DETAIL,
               "%s rank %u (pid %d) ended: its slot, box, mapping and endpoint given back", ep->nspace.c_str(),
               ep->rank, ep->pid);
    // Last: the object itself, which nothing names any more.
    endpoints_.erase(std::remove_if(endpoints_.begin(), endpoints_.end(),
                                    [ep](const std::unique_ptr<Endpoint> &owned) { return owned.get() == ep; }),
                     endpoints_.end());
}

}  // namespace plexus::btl_sm
