// The cores ranks are bound to, from hwloc. A rank goes to the core the fewest running ranks are
// bound to (the lowest such core on a tie), so the first job's rank i gets core (i mod cores) and
// a spawned job's ranks get the cores the running jobs leave free.
#pragma once

#include <sched.h>

#include <optional>
#include <vector>

#include "options.h"

namespace plexrun {

class CoreMap {
public:
    // Loads the topology of the cores this process may use; throws std::runtime_error.
    CoreMap();
    ~CoreMap();
    CoreMap(const CoreMap &) = delete;
    CoreMap &operator=(const CoreMap &) = delete;

    int cores() const { return cores_; }
    // The CPUs of core (index mod cores), as sched_setaffinity takes them.
    cpu_set_t cpus_for(int index) const;

private:
    void *topology_;  // hwloc_topology_t, kept out of this header
    int cores_ = 0;
};

// How many running ranks are bound to each core: what a new rank's core is chosen by.
class CoreLoad {
public:
    explicit CoreLoad(int cores) : bound_(static_cast<size_t>(cores > 0 ? cores : 1), 0) {}
    // The core the fewest ranks are bound to; the lowest index among equals.
    int least_loaded() const;
    void add(int core) { ++bound_.at(static_cast<size_t>(core)); }

private:
    std::vector<int> bound_;
};

// Whether a job of NEW_RANKS started beside RUNNING ranks (of every namespace) is bound at all.
// Core binds always; automatic only while the node is not oversubscribed, i.e. while every one
// of them can have a core of its own; none never.
bool binds(BindPolicy policy, const CoreMap *cores, int running, int new_ranks);

}  // namespace plexrun
