// Every process this one has heard of, by a dense index (the "proc id" the BTLs hand back with
// each message): the processes of MPI_COMM_WORLD first (proc id == world rank), then processes of
// other jobs as spawn and connect add them. The id of a process of another job that left (no
// communicator reaches it after MPI_Comm_disconnect) goes to a later newcomer once nothing names
// it any more (the caller's check: the BTLs, the groups), so that a program spawning and
// disconnecting for ever keeps tables of the size of what it holds at once.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "runtime/job_info.h"

namespace plexus::mpi {

class ProcTable {
public:
    // Whether the id of a departed process may name another one now.
    using ReuseCheck = std::function<bool(uint32_t id)>;

    // The world of this job: ids 0 .. size-1, in rank order.
    void init_world(const runtime::JobInfo &job);
    // The id of proc: its own if the table knows it (departed or not: a process that comes back
    // keeps its id), else a departed process's that may_reuse allows (*reused set), else a new one.
    uint32_t add(const runtime::ProcId &proc, const ReuseCheck &may_reuse = {}, bool *reused = nullptr);
    // No communicator reaches these processes any more (MPI_Comm_disconnect). Ids of the world
    // are never given away.
    void depart(const std::vector<uint32_t> &ids);
    const runtime::ProcId &at(uint32_t id) const { return procs_[id]; }
    size_t size() const { return procs_.size(); }
    size_t departed() const { return departed_.size(); }
    uint32_t self() const { return self_; }
    size_t world_size() const { return world_size_; }

private:
    std::vector<runtime::ProcId> procs_;
    std::vector<uint32_t> departed_;  // oldest first
    uint32_t self_ = 0;
    size_t world_size_ = 0;
};

}  // namespace plexus::mpi
