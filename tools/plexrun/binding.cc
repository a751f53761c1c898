// CPU binding through hwloc.
#include "binding.h"

#include <hwloc.h>

#include <stdexcept>

#include "runtime/hwloc_plugins.h"

namespace plexrun {
namespace {

hwloc_topology_t topo(void *p) {
    return static_cast<hwloc_topology_t>(p);
}

// Cores, or PUs on a machine that reports no cores.
hwloc_obj_type_t unit_type(hwloc_topology_t t) {
    return hwloc_get_nbobjs_by_type(t, HWLOC_OBJ_CORE) > 0 ? HWLOC_OBJ_CORE : HWLOC_OBJ_PU;
}

}  // namespace

CoreMap::CoreMap() {
    hwloc_topology_t t;
    {
        plexus::runtime::SkippedHwlocPlugins skipped(plexus::runtime::kHwlocPluginsLauncherSkips);
        if (hwloc_topology_init(&t) != 0) throw std::runtime_error("hwloc_topology_init failed");
    }
    // Only cores and PUs are needed: skipping caches and I/O devices makes the load cheap.
    hwloc_topology_set_all_types_filter(t, HWLOC_TYPE_FILTER_KEEP_NONE);
    hwloc_topology_set_type_filter(t, HWLOC_OBJ_CORE, HWLOC_TYPE_FILTER_KEEP_ALL);
    hwloc_topology_set_type_filter(t, HWLOC_OBJ_PU, HWLOC_TYPE_FILTER_KEEP_ALL);
    if (hwloc_topology_load(t) != 0) {
        hwloc_topology_destroy(t);
        throw std::runtime_error("hwloc_topology_load failed");
    }
    topology_ = t;
    cores_ = hwloc_get_nbobjs_by_type(t, unit_type(t));
    if (cores_ < 1) cores_ = 1;
}

CoreMap::~CoreMap() {
    hwloc_topology_destroy(topo(topology_));
}

cpu_set_t CoreMap::cpus_for(int index) const {
    hwloc_topology_t t = topo(topology_);
    hwloc_obj_t core = hwloc_get_obj_by_type(t, unit_type(t), static_cast<unsigned>(index % cores_));
    cpu_set_t set;
    CPU_ZERO(&set);
    if (core) {
        int cpu;
        hwloc_bitmap_foreach_begin(cpu, core->cpuset) CPU_SET(cpu, &set);
        hwloc_bitmap_foreach_end();
    }
    return set;
}

int CoreLoad::least_loaded() const {
    size_t best = 0;
    for (size_t i = 1; i < bound_.size(); ++i)
        if (bound_[i] < bound_[best]) best = i;
    return static_cast<int>(best);
}

bool binds(BindPolicy policy, const CoreMap *cores, int running, int new_ranks) {
    if (!cores || policy == BindPolicy::None) return false;
    return policy == BindPolicy::Core || running + new_ranks <= cores->cores();
}

}  // namespace plexrun
