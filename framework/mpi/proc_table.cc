// The table of known processes: world first, others appended as they appear, the ids of those
// that left given again.
#include "mpi/proc_table.h"

#include <algorithm>

namespace plexus::mpi {

void ProcTable::init_world(const runtime::JobInfo &job) {
    procs_.clear();
    departed_.clear();
    procs_.reserve(job.size);
    for (uint32_t r = 0; r < job.size; ++r) procs_.push_back({job.nspace, r});
    self_ = job.rank;
    world_size_ = job.size;
}

uint32_t ProcTable::add(const runtime::ProcId &proc, const ReuseCheck &may_reuse, bool *reused) {
    if (reused) *reused = false;
    // Linear: processes outside the world are added by spawn and connect, which are rare and
    // small next to the connection they set up.
    if (auto it = std::find(procs_.begin(), procs_.end(), proc); it != procs_.end()) {
        const auto id = static_cast<uint32_t>(it - procs_.begin());
        departed_.erase(std::remove(departed_.begin(), departed_.end(), id), departed_.end());
        return id;
    }
    if (may_reuse)
        for (auto it = departed_.begin(); it != departed_.end(); ++it)
            if (may_reuse(*it)) {
                const uint32_t id = *it;
                departed_.erase(it);
                procs_[id] = proc;
                if (reused) *reused = true;
                return id;
            }
    procs_.push_back(proc);
    return static_cast<uint32_t>(procs_.size() - 1);
}

void ProcTable::depart(const std::vector<uint32_t> &ids) {
    for (uint32_t id : ids)
        if (id >= world_size_ && id < procs_.size() &&
            std::find(departed_.begin(), departed_.end(), id) == departed_.end())
            departed_.push_back(id);
}

}  // namespace plexus::mpi
