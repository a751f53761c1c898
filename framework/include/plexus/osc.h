/* OSC (one-sided communication) framework interface. Per-window selection: the highest-priority
 * module that accepts the window serves it; if its window creation fails the next one is tried. */
#ifndef PLEXUS_OSC_H
#define PLEXUS_OSC_H

#include <plexus/component.h>

#ifdef __cplusplus
extern "C" {
#endif

#define PLEXUS_OSC_MAJOR 1
#define PLEXUS_OSC_MINOR 0

/* query() scope for osc: the window being created. */
typedef struct plexus_osc_scope {
    uint32_t struct_size;
    uint64_t size;         /* bytes this process exposes */
    int disp_unit;
    int comm_size;
    int local_peers;       /* members on this node, incl. the caller */
    int flavor;            /* PLEXUS_OSC_FLAVOR_* */
} plexus_osc_scope_t;

#define PLEXUS_OSC_FLAVOR_CREATE 1
#define PLEXUS_OSC_FLAVOR_ALLOCATE 2
#define PLEXUS_OSC_FLAVOR_DYNAMIC 3

#ifdef __cplusplus
}
#endif

#endif /* PLEXUS_OSC_H */
