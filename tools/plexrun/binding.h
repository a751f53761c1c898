// The cores ranks are bound to, from hwloc: rank i of the node gets core (i mod cores).
#pragma once

#include <sched.h>

#include <optional>

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
    // The CPUs of core (node_rank mod cores), as sched_setaffinity takes them.
    cpu_set_t cpus_for(int node_rank) const;

private:
    void *topology_;  // hwloc_topology_t, kept out of this header
    int cores_ = 0;
};

// What a rank with this node rank is bound to. Automatic binds while the node is not
// oversubscribed: when every rank up to the last one launched so far has a core of its own.
std::optional<cpu_set_t> binding_for(BindPolicy policy, const CoreMap *cores, int node_rank,
                                     int last_node_rank);

}  // namespace plexrun
