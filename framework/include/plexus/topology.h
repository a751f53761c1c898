/* What the host API tells components about this node's hardware (hwloc underneath), so that
 * components place segments and pick peers without linking hwloc themselves. */
#ifndef PLEXUS_TOPOLOGY_H
#define PLEXUS_TOPOLOGY_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct plexus_topology_summary {
    uint32_t struct_size;  /* set by the caller to sizeof(plexus_topology_summary_t) */
    int packages;
    int numa_nodes;
    int cores;
    int pus;               /* hardware threads */
    uint64_t l1d_bytes;    /* per core; 0 when unknown */
    uint64_t l2_bytes;
    uint64_t l3_bytes;     /* per package or L3 domain; 0 when none */
    int cache_line_bytes;
    int self_numa_node;    /* NUMA node this process is bound to or runs on; -1 when unknown */
    int self_bound;        /* 1 when the process is bound to a subset of the machine */
} plexus_topology_summary_t;

/* Bits of topology_relation(): which levels two cpusets share. */
#define PLEXUS_TOPO_SHARE_PU 0x01u
#define PLEXUS_TOPO_SHARE_CORE 0x02u
#define PLEXUS_TOPO_SHARE_L2 0x04u
#define PLEXUS_TOPO_SHARE_L3 0x08u
#define PLEXUS_TOPO_SHARE_NUMA 0x10u
#define PLEXUS_TOPO_SHARE_PACKAGE 0x20u
#define PLEXUS_TOPO_SHARE_MACHINE 0x40u

#ifdef __cplusplus
}
#endif

#endif /* PLEXUS_TOPOLOGY_H */
