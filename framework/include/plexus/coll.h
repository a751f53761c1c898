/* COLL (collectives) framework interface. Per-object selection: every communicator queries every
 * component and builds, per collective function, a table of modules ordered by priority with a
 * fallback chain. */
#ifndef PLEXUS_COLL_H
#define PLEXUS_COLL_H

#include <plexus/component.h>

#ifdef __cplusplus
extern "C" {
#endif

#define PLEXUS_COLL_MAJOR 1
#define PLEXUS_COLL_MINOR 0

/* query() scope for coll: the communicator a module is asked to serve. */
typedef struct plexus_coll_scope {
    uint32_t struct_size;
    uint32_t context_id;  /* unique among the communicators alive in this process */
    int size;             /* local group size */
    int rank;             /* this process's rank in the local group */
    int is_inter;         /* 1 for an inter-communicator */
    int remote_size;      /* remote group size; 0 for intra-communicators */
    int local_peers;      /* how many members share this node with the caller (incl. itself) */
    const char *name;     /* MPI_Comm_set_name, or "" */
    const char *preference; /* the plexus_coll_preference info hint, or NULL */
} plexus_coll_scope_t;

#ifdef __cplusplus
}
#endif

#endif /* PLEXUS_COLL_H */
