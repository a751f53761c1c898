// The table of known processes: world first, others appended as they appear.
#include "mpi/proc_table.h"

#include <algorithm>

namespace plexus::mpi {

void ProcTable::init_world(const runtime::JobInfo &job) {
    procs_.clear();
    procs_.reserve(job.size);
    for (uint32_t r = 0; r < job.size; ++r) procs_.push_back({job.nspace, r});
    self_ = job.rank;
    world_size_ = job.size;
}

uint32_t ProcTable::add(const runtime::ProcId &proc) {
    // Linear: processes outside the world are added by spawn and connect, which are rare and
    // small next to the connection they set up.
    auto it = std::find(procs_.begin(), procs_.end(), proc);
    if (it != procs_.end()) return static_cast<uint32_t>(it - procs_.begin());
    procs_.push_back(proc);
    return static_cast<uint32_t>(procs_.size() - 1);
}

}  // namespace plexus::mpi
