/* RECONF (run-time reconfiguration) framework interface. Zero or one component: when none is
 * usable the library runs unreconfigured. query(NULL) returns the module that serves the process.
 *
 * The shape follows profile-guided reconfiguration (PRO-MPI): a profiler counts, per peer and
 * per application phase, the messages this process sends; an analyzer (offline, or online between
 * phases) turns the counts into a schedule; a reconfiguration manager applies it at phase
 * boundaries, e.g. giving a fast channel (btl.h: sm fast boxes, openib eager RDMA) to the peers a
 * phase talks to most and quiescing the others. The core does the counting on the send path
 * (a few increments, always on while a module is selected) and tells the module about the events
 * it asked for; the module acts through the services: fast channels per peer, the collective
 * preference of a communicator. Nothing here is called on the hot path of a module-less run. */
#ifndef PLEXUS_RECONF_H
#define PLEXUS_RECONF_H

#include <stddef.h>
#include <stdint.h>

#include <plexus/btl.h>
#include <plexus/coll.h>
#include <plexus/component.h>

#ifdef __cplusplus
extern "C" {
#endif

#define PLEXUS_RECONF_MAJOR 1
#define PLEXUS_RECONF_MINOR 1 /* 1.1: the module and services; 1.0 had the descriptor only */

/* query() scope for reconf: NULL. The module it returns serves the process until close. */

/* ------------------------------------------------------------------ observations */
/* What the core counts for each peer this process sent to (proc: plexus_btl_proc_t.id, the
 * index the BML knows the peer by). "Small" is at or below the eager limit of the peer's first
 * BTL: the messages a fast channel would carry. */
typedef struct plexus_reconf_peer_counts {
    uint32_t proc;
    uint32_t reserved;
    uint64_t messages;
    uint64_t small_messages;
    uint64_t bytes;
} plexus_reconf_peer_counts_t;

/* Events a module may ask for (plexus_reconf_module_t::observe bits). */
#define PLEXUS_RECONF_EV_PHASE 0x1u   /* MPI_Pcontrol(level): the application starts a phase */
#define PLEXUS_RECONF_EV_BARRIER 0x2u /* MPI_Barrier returned: a phase boundary to infer */
#define PLEXUS_RECONF_EV_COLL 0x4u    /* any other collective call returned */
#define PLEXUS_RECONF_EV_COMM 0x8u    /* a communicator was made or is about to be freed */

typedef struct plexus_reconf_event {
    uint32_t struct_size;
    uint32_t kind;            /* one PLEXUS_RECONF_EV_* bit */
    int level;                /* EV_PHASE: MPI_Pcontrol's level */
    int function;             /* EV_COLL: enum plexus_coll_function */
    int freed;                /* EV_COMM: 1 when comm is about to be freed */
    int reserved;
    plexus_coll_comm_t *comm; /* BARRIER, COLL, COMM: the communicator */
    size_t bytes;             /* EV_COLL: this process's send volume in the call */
    double time;              /* MPI_Wtime when the event happened */
} plexus_reconf_event_t;

/* ------------------------------------------------------------------ services */
#define PLEXUS_RECONF_SERVICES_MAJOR 1
#define PLEXUS_RECONF_SERVICES_MINOR 0

/* What the core offers the reconf module; valid from init until finalize returns. Functions
 * return PLEXUS_SUCCESS or a negative PLEXUS_ERR_* (status.h) unless said otherwise. */
typedef struct plexus_reconf_services {
    uint32_t struct_size;
    uint16_t major;
    uint16_t minor;

    /* Collectives over any communicator (a global profile at finalize, an online analysis). */
    const plexus_coll_services_t *coll;

    /* Peers. proc_count: how many the BML knows (procs are 0 .. proc_count-1; the job's own
     * ranks first, then processes of other jobs as they connect). proc_identity: the process
     * behind proc (*nspace valid until finalize). */
    uint32_t (*proc_count)(void);
    int (*proc_identity)(uint32_t proc, const char **nspace, uint32_t *rank);

    /* The counts since the last reset, of every peer sent to (at most max entries; returns how
     * many there were, which may be more). reset: start counting from zero after the copy. */
    int (*counters)(plexus_reconf_peer_counts_t *out, int max, int reset);

    /* Fast channels to proc through its best BTL that has them (PLEXUS_BTL_CAP_FAST_CHANNELS):
     * the btl.h operations and states. PLEXUS_ERR_NOT_SUPPORTED when no BTL to proc has any;
     * PLEXUS_ERR_NOT_AVAILABLE when the peer has no room for one more (a maxRDMA of its own). */
    int (*fast_channel)(uint32_t proc, plexus_btl_fast_op_t op);
    plexus_btl_fast_state_t (*fast_channel_state)(uint32_t proc);
    /* The sum over every BTL with fast channels. */
    int (*fast_channel_stats)(plexus_btl_fast_stats_t *out);

    /* The coll components comm prefers, as the plexus_coll_preference hint ("sm,basic"; NULL or
     * "" removes it): the next collective call on comm selects again. Every process of comm must
     * set the same preference before its next collective on comm (collective, as
     * MPI_Comm_set_info is). */
    int (*coll_preference)(plexus_coll_comm_t *comm, const char *components);

    /* reconf_base_verbose-aware tracing, as the host API's log (level PLEXUS_LOG_*). */
    int (*verbosity)(void);
} plexus_reconf_services_t;

/* ------------------------------------------------------------------ the module */
struct plexus_reconf_module;
typedef struct plexus_reconf_module plexus_reconf_module_t;

/* What query() returns (plexus_query_result_t::module): one module for the process, owned by the
 * component (freed at close). Calls come on the MPI thread, never from a progress callback. */
struct plexus_reconf_module {
    uint32_t struct_size; /* sizeof(plexus_reconf_module_t) as the component was built */
    uint16_t major;       /* PLEXUS_RECONF_MAJOR / MINOR the component was built against */
    uint16_t minor;
    /* PLEXUS_RECONF_EV_* bits of the events to report; read after init returns. */
    uint32_t observe;

    /* Once, at the end of MPI_Init (the BTLs and MPI_COMM_WORLD exist), collectively over world:
     * read a profile or a schedule, set up the first phase. */
    int (*init)(plexus_reconf_module_t *self, const plexus_reconf_services_t *services,
                plexus_coll_comm_t *world);
    /* An event of a kind in observe, after the call it reports has done its work. A phase
     * boundary is where a module reconfigures (through the services) before it returns. */
    void (*event)(plexus_reconf_module_t *self, const plexus_reconf_event_t *ev);
    /* In MPI_Finalize, while communication still works (collectively over MPI_COMM_WORLD): write
     * the profile, drop the fast channels it made. */
    int (*finalize)(plexus_reconf_module_t *self);
};

#ifdef __cplusplus
}
#endif

#endif /* PLEXUS_RECONF_H */
