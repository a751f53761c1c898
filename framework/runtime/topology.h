// This node's hardware as hwloc sees it, loaded once, answering the questions components ask
// through the host API (sizes, caches, which cpusets share what).
#pragma once

#include <memory>
#include <string>

#include <plexus/topology.h>

namespace plexus::runtime {

class Topology {
public:
    // Loads the topology of this machine; throws std::runtime_error with hwloc's complaint.
    Topology();
    // Loads a topology from hwloc XML (tests use synthetic machines).
    static std::unique_ptr<Topology> from_xml(const std::string &xml);
    // Loads a synthetic topology, e.g. "package:2 numa:1 l3:1 core:4 pu:2".
    static std::unique_ptr<Topology> from_synthetic(const std::string &description);
    ~Topology();
    Topology(const Topology &) = delete;
    Topology &operator=(const Topology &) = delete;

    plexus_topology_summary_t summary() const;
    // Cpuset of this process's current binding as hwloc's list syntax ("0-3,8").
    std::string self_cpuset() const;
    // PLEXUS_TOPO_SHARE_* bits for the smallest objects each cpuset spans; -1 on a cpuset that
    // does not parse or lies outside the machine.
    int relation(const std::string &cpuset_a, const std::string &cpuset_b, unsigned *shared) const;
    // Binds [addr, addr + len) to the NUMA nodes of this process's CPU binding. False where the
    // topology is not this machine's or the system cannot bind memory (errno says why).
    bool bind_area_local(void *addr, size_t len) const;
    // True when binding memory to this process's NUMA nodes cannot place it anywhere else than
    // the kernel's first touch does: the machine has one NUMA node, or the process may run on
    // every CPU online. Asks the kernel, not hwloc, so that it costs no topology load.
    static bool memory_binding_moot();

private:
    struct Impl;
    explicit Topology(std::unique_ptr<Impl> impl);
    std::unique_ptr<Impl> impl_;
};

}  // namespace plexus::runtime
