// The binding travels as hwloc's list syntax in a fixed record, so one allgather carries it; a
// binding too long for the record (a process bound to hundreds of scattered CPUs) counts as
// unknown, which only costs that process its placement, never correctness.
#include "mpi/topo/locality_gather.h"

#include <cstring>
#include <exception>
#include <string>

#include "mca/mca_core.h"
#include "mpi/comm/internal_collectives.h"
#include "runtime/runtime.h"
#include "runtime/topology.h"

namespace plexus::mpi::topo {
namespace {

struct Record {
    uint32_t node;
    char cpuset[124];  // NUL-terminated; empty when unknown
};

runtime::Topology *machine() {
    mca::McaCore *core = mca::McaCore::current();
    if (!core) return nullptr;
    try {
        return &core->topology();
    } catch (const std::exception &) {
        return nullptr;  // hwloc could not load this machine: no groups
    }
}

Record my_record(runtime::Topology *topo) {
    Record r{};
    const runtime::Runtime *rt = runtime::Runtime::current();
    r.node = rt ? rt->job().node_id : 0;
    if (!topo) return r;
    const std::string set = topo->self_cpuset();
    if (set.size() < sizeof r.cpuset) std::memcpy(r.cpuset, set.c_str(), set.size() + 1);
    return r;
}

// The hardware levels two bindings share (PLEXUS_TOPO_SHARE_* bits), 0 when either is unknown.
unsigned shared_levels(runtime::Topology *topo, const Record &a, const Record &b) {
    unsigned bits = 0;
    if (!topo || !a.cpuset[0] || !b.cpuset[0]) return 0;
    if (topo->relation(a.cpuset, b.cpuset, &bits) != 0) return 0;
    return bits;
}

constexpr unsigned kLevelBit[kLevels] = {PLEXUS_TOPO_SHARE_PACKAGE, PLEXUS_TOPO_SHARE_NUMA, PLEXUS_TOPO_SHARE_L3,
                                         PLEXUS_TOPO_SHARE_L2, PLEXUS_TOPO_SHARE_CORE};

}  // namespace

int gather_locality(Comm *comm, std::vector<Locality> *out) {
    runtime::Topology *topo = machine();
    const Record mine = my_record(topo);
    const size_t n = static_cast<size_t>(comm->size());
    std::vector<Record> all(n);
    if (int rc = internal::allgather(comm, &mine, sizeof mine, all.data())) return rc;
    out->assign(n, Locality{});
    for (size_t p = 0; p < n; ++p) {
        Locality &l = (*out)[p];
        l.node = all[p].node;
        for (int level = 0; level < kLevels; ++level) l.group[level] = static_cast<int32_t>(p);
        // Sharing one object of a level is an equivalence (objects of a level are disjoint), so
        // the lowest rank sharing it names the group.
        for (size_t q = 0; q < p; ++q) {
            if (all[q].node != l.node) continue;
            const unsigned bits = shared_levels(topo, all[p], all[q]);
            for (int level = 0; level < kLevels; ++level)
                if ((bits & kLevelBit[level]) && l.group[level] == static_cast<int32_t>(p))
                    l.group[level] = static_cast<int32_t>(q);
        }
    }
    return MPI_SUCCESS;
}

}  // namespace plexus::mpi::topo
