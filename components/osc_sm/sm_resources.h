// Owners of what a window holds outside its own memory: a peer's pages mapped through the host's
// shm services, and a block of MPI_Alloc_mem memory. Each gives its resource back when it goes.
#pragma once

#include <utility>

#include <plexus/osc.h>
#include <plexus/shm.h>

namespace plexus::osc_sm {

class PeerMap {
public:
    PeerMap() = default;
    PeerMap(const plexus_shm_services_t *shm, plexus_shm_peer_map_t *m) : shm_(shm), m_(m) {}
    ~PeerMap() { reset(); }
    PeerMap(PeerMap &&o) noexcept : shm_(o.shm_), m_(std::exchange(o.m_, nullptr)) {}
    PeerMap &operator=(PeerMap &&o) noexcept {
        if (this != &o) {
            reset();
            shm_ = o.shm_;
            m_ = std::exchange(o.m_, nullptr);
        }
        return *this;
    }
    void reset() {
        if (m_) shm_->peer_unmap(m_);
        m_ = nullptr;
    }

private:
    const plexus_shm_services_t *shm_ = nullptr;
    plexus_shm_peer_map_t *m_ = nullptr;
};

class AllocMem {
public:
    AllocMem() = default;
    AllocMem(const plexus_osc_services_t *svc, void *p) : svc_(svc), p_(p) {}
    ~AllocMem() { reset(); }
    AllocMem(AllocMem &&o) noexcept : svc_(o.svc_), p_(std::exchange(o.p_, nullptr)) {}
    AllocMem &operator=(AllocMem &&o) noexcept {
        if (this != &o) {
            reset();
            svc_ = o.svc_;
            p_ = std::exchange(o.p_, nullptr);
        }
        return *this;
    }
    void *get() const { return p_; }
    void reset() {
        if (p_) svc_->free_mem(p_);
        p_ = nullptr;
    }

private:
    const plexus_osc_services_t *svc_ = nullptr;
    void *p_ = nullptr;
};

}  // namespace plexus::osc_sm
