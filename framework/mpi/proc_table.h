// Every process this one has heard of, by a dense index (the "proc id" the BTLs hand back with
// each message): the processes of MPI_COMM_WORLD first (proc id == world rank), then processes of
// other jobs as spawn and connect add them. Ids are never reused while the library runs.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "runtime/job_info.h"

namespace plexus::mpi {

class ProcTable {
public:
    // The world of this job: ids 0 .. size-1, in rank order.
    void init_world(const runtime::JobInfo &job);
    // The id of proc, added when new.
    uint32_t add(const runtime::ProcId &proc);
    const runtime::ProcId &at(uint32_t id) const { return procs_[id]; }
    size_t size() const { return procs_.size(); }
    uint32_t self() const { return self_; }
    size_t world_size() const { return world_size_; }

private:
    std::vector<runtime::ProcId> procs_;
    uint32_t self_ = 0;
    size_t world_size_ = 0;
};

}  // namespace plexus::mpi
