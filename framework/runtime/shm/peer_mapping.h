// Mapping part of a file another local process holds open (plexus/shm.h 1.1 peer_map): what
// one-sided windows over MPI_Alloc_mem memory use to reach a peer's memfd by its descriptor.
#pragma once

#include <sys/types.h>

#include <cstdint>

#include "runtime/status.h"
#include "runtime/shm/mapping.h"

namespace plexus::runtime {

// The pages of [offset, offset + len) of process pid's descriptor fd, mapped here; at() is the
// byte at offset (the mapping itself starts at the page holding it).
class PeerMapping {
public:
    static Status map(pid_t pid, int fd, uint64_t offset, uint64_t len, PeerMapping *out);
    void *at() const { return map_.base() + into_page_; }

private:
    Mapping map_;
    size_t into_page_ = 0;
};

}  // namespace plexus::runtime
