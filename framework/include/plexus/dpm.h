/* DPM (dynamic process management) framework interface: spawn, connect/accept on a port, join
 * over a socket, disconnect, publish/lookup. Single-select: the one usable component with the
 * highest priority serves the process (query(NULL) returns its module).
 *
 * The split of the work: a component finds the other group (it starts it, or meets it at a port
 * or a socket), agrees on a context id with it and learns its processes; the core turns that
 * into an inter-communicator once for every component (services->intercomm_create: the remote
 * group, the per-process tables, BTL endpoints added through every BTL's add_procs, connections
 * on first use). Communicators are the opaque handles of coll.h; collectives over the local group
 * (broadcasting what the root learnt) go through services->coll. Error classes have their mpi.h
 * values. */
#ifndef PLEXUS_DPM_H
#define PLEXUS_DPM_H

#include <stddef.h>
#include <stdint.h>

#include <plexus/coll.h>
#include <plexus/component.h>

#ifdef __cplusplus
extern "C" {
#endif

#define PLEXUS_DPM_MAJOR 1
#define PLEXUS_DPM_MINOR 1 /* 1.1: the module and services; 1.0 had the descriptor only */

/* query() scope for dpm: NULL. The module it returns serves the process until close. */

/* ------------------------------------------------------------------ constants (mpi.h values) */
#define PLEXUS_DPM_PORT_MAX 1024 /* MPI_MAX_PORT_NAME, the NUL included */

#define PLEXUS_DPM_SUCCESS 0
#define PLEXUS_DPM_ERR_ARG 13          /* MPI_ERR_ARG: e.g. join over an fd that is no socket */
#define PLEXUS_DPM_ERR_OTHER 16        /* MPI_ERR_OTHER */
#define PLEXUS_DPM_ERR_INTERN 17       /* MPI_ERR_INTERN */
#define PLEXUS_DPM_ERR_NAME 38         /* MPI_ERR_NAME: lookup of an unknown service name */
#define PLEXUS_DPM_ERR_NO_MEM 39       /* MPI_ERR_NO_MEM */
#define PLEXUS_DPM_ERR_PORT 43         /* MPI_ERR_PORT: malformed or closed port, timeout */
#define PLEXUS_DPM_ERR_SERVICE 48      /* MPI_ERR_SERVICE: publish twice, unpublish unknown */
#define PLEXUS_DPM_ERR_SPAWN 50        /* MPI_ERR_SPAWN */
#define PLEXUS_DPM_ERR_UNSUPPORTED 52  /* MPI_ERR_UNSUPPORTED_OPERATION */

/* ------------------------------------------------------------------ what components describe */
/* A process of any job. */
typedef struct plexus_dpm_proc {
    const char *nspace; /* NUL-terminated */
    uint32_t rank;      /* in nspace */
} plexus_dpm_proc_t;

/* The other group, as the component learnt it: what the core needs for the inter-communicator.
 * Every process of the local group passes the same description (the root broadcasts it). */
typedef struct plexus_dpm_remote_group {
    uint32_t struct_size;
    uint32_t size;                  /* processes in the remote group */
    const plexus_dpm_proc_t *procs; /* size entries, in the remote group's rank order */
    uint32_t context_id;            /* agreed by both groups (services->context_id) */
    /* ---- dpm services 1.4 (a shorter struct_size: none) ---- */
    /* PLEXUS_PEER_SECRET_LEN bytes both groups agreed during this meeting, the same at every
     * process of both (NULL: none). intercomm_create registers it for every remote process, and
     * the other group for ours: BTLs that authenticate connections between jobs prove it (host
     * API peer_secrets, btl_tcp). Agree it over the meeting's authenticated channel and keep it
     * from anybody else: whoever holds it may connect to the local group's processes as a remote
     * one. */
    const uint8_t *pair_secret;
} plexus_dpm_remote_group_t;

/* The size of the description before dpm services 1.4 (no pair_secret). */
#define PLEXUS_DPM_REMOTE_GROUP_SIZE_1_3 (offsetof(plexus_dpm_remote_group_t, context_id) + sizeof(uint32_t))

/* One command of MPI_Comm_spawn_multiple (MPI_Comm_spawn: one). Info keys the MPI layer passes
 * on: host, path, wdir, arch, soft; a component ignores what it cannot do, as MPI allows. */
typedef struct plexus_dpm_command {
    uint32_t struct_size;
    int maxprocs;
    const char *command;
    const char *const *argv; /* NULL-terminated, without the command; NULL: no arguments */
    int ninfo;
    const char *const *info_keys;
    const char *const *info_values;
} plexus_dpm_command_t;

/* ------------------------------------------------------------------ services */
#define PLEXUS_DPM_SERVICES_MAJOR 1
#define PLEXUS_DPM_SERVICES_MINOR 4 /* 1.1: local_proc, publish_as, lookup_wait, comm_self
                                     * 1.2: own_cards, provide_cards
                                     * 1.3: unpublish_as
                                     * 1.4: the remote group's pair_secret */

/* How long a value publish_as publishes lives. */
#define PLEXUS_DPM_PERSIST_DEFAULT 0    /* the job manager's default */
#define PLEXUS_DPM_PERSIST_PROC 1       /* until the publisher ends (or unpublishes it) */
#define PLEXUS_DPM_PERSIST_FIRST_READ 2 /* until the first lookup reads it: a one-shot message */

/* What the core offers dpm modules; valid from init until MPI_Finalize. Functions return MPI
 * error classes unless said otherwise. Every wait in them is bounded (connect_timeout_ms). */
typedef struct plexus_dpm_services {
    uint32_t struct_size;
    uint16_t major;
    uint16_t minor;

    /* Point-to-point and collectives of the local group (bcast of a remote description). */
    const plexus_coll_services_t *coll;

    /* The job manager (PMIx_Spawn, or plexrun's own server). launch starts the commands as one
     * new namespace (appnum i for command i), each child with env ("NAME=value", NULL-terminated,
     * may be NULL) added to its environment: how a parent hands its children an address of its
     * own. Called by one process; nspace receives the new namespace's name. errcodes (one per
     * process, in order) say which processes could not be started. */
    int (*launch)(int n, const plexus_dpm_command_t cmds[], const char *const *env, char *nspace,
                  size_t nspace_len, int errcodes[]);
    /* The job manager's name service (MPI_Publish_name and friends go through it where a
     * component has no name service of its own; the MPI layer prefixes the service names it
     * passes, so that they never meet a component's own keys). publish: PLEXUS_DPM_ERR_SERVICE
     * when published already; lookup (no wait): PLEXUS_DPM_ERR_NAME when unknown; unpublish:
     * PLEXUS_DPM_ERR_SERVICE when unknown. */
    int (*publish)(const char *service, const char *port);
    int (*lookup)(const char *service, char *port, size_t len);
    int (*unpublish)(const char *service);
    /* The process that spawned this job: 1 and *parent filled (nspace valid until finalize),
     * 0 when the job was not spawned. */
    int (*parent)(plexus_dpm_proc_t *parent);
    /* How many processes namespace nspace has (another job's, known to the job manager). */
    int (*nspace_size)(const char *nspace, uint32_t *size);

    /* Context ids. Collective over comm: the lowest id >= at_least that is free at every member.
     * Two groups agree by trading proposals between their roots until both propose the same. */
    int (*context_id)(plexus_coll_comm_t *comm, uint32_t at_least, uint32_t *cid);
    /* Collective over comm (the local group): the inter-communicator of comm's group and remote,
     * on remote->context_id. The remote processes' business cards are fetched (host API
     * modex_get) and their BTL endpoints added as the first message to each needs them. */
    int (*intercomm_create)(plexus_coll_comm_t *comm, const plexus_dpm_remote_group_t *remote,
                            plexus_coll_comm_t **intercomm);
    /* The remote process of an inter-communicator's rank (nspace valid while intercomm lives). */
    int (*remote_proc)(plexus_coll_comm_t *intercomm, int rank, plexus_dpm_proc_t *out);

    /* dpm_base_connect_timeout in milliseconds: how long accept, connect and join wait for the
     * other side before they fail with PLEXUS_DPM_ERR_PORT. */
    int (*connect_timeout_ms)(void);
    /* Says what was wrong with the call about to return an error class; the MPI layer hands the
     * message with the class to the communicator's error handler. */
    void (*set_error)(const char *fmt, ...)
#if defined(__GNUC__)
        __attribute__((format(printf, 1, 2)))
#endif
        ;
    /* dpm_base_verbose-aware tracing, as the host API's log (level PLEXUS_LOG_*). */
    int (*verbosity)(void);

    /* ---- 1.1 ---- */
    /* The process at rank of comm's local group (nspace valid until finalize). */
    int (*local_proc)(plexus_coll_comm_t *comm, int rank, plexus_dpm_proc_t *out);
    /* The job manager's name service for a component's own messages: publish_as with a
     * PLEXUS_DPM_PERSIST_* lifetime (PLEXUS_DPM_ERR_SERVICE when key is published already);
     * lookup_wait waits up to timeout_ms for key to be published (PLEXUS_DPM_ERR_PORT when the
     * time is up, the message saying what was waited for) and returns its value in *value,
     * malloc'd: the caller frees it. */
    int (*publish_as)(const char *key, const char *value, int persistence);
    int (*lookup_wait)(const char *key, int timeout_ms, char **value);
    /* MPI_COMM_SELF (the local group of MPI_Comm_join). */
    plexus_coll_comm_t *(*comm_self)(void);

    /* ---- 1.2 (check struct_size) ---- */
    /* Business cards carried by the component itself (dpm_ud's datagrams) rather than fetched
     * from the other job's server. own_cards: every card this process put (each component's),
     * packed into one blob, malloc'd: the caller frees it. provide_cards: the blob own_cards made
     * at process proc of another job, kept so that intercomm_create's add_procs find its cards
     * without asking the job manager (a process of this job: ignored, its cards are known);
     * PLEXUS_DPM_ERR_ARG for a malformed blob. Call it before intercomm_create. */
    int (*own_cards)(void **blob, size_t *len);
    int (*provide_cards)(const plexus_dpm_proc_t *proc, const void *blob, size_t len);

    /* ---- 1.3 (check struct_size) ---- */
    /* Withdraws what this process published under key with publish_as, read or not (a message
     * nobody will read once a meeting failed); a key that is gone already is no error. Never
     * reads the key, which would take a one-shot message as its reader. */
    int (*unpublish_as)(const char *key);
} plexus_dpm_services_t;

/* ------------------------------------------------------------------ the module */
struct plexus_dpm_module;
typedef struct plexus_dpm_module plexus_dpm_module_t;

/* What query() returns (plexus_query_result_t::module): one module for the process, owned by the
 * component (freed at close). Calls come on one thread at a time. The collective functions are
 * collective over comm (the local group) with root as MPI names it: only the root's port,
 * commands and service name are significant. Each returns an error class at every process of
 * comm, the same at all of them (the root's outcome is broadcast), and on success the
 * inter-communicator in *intercomm. */
struct plexus_dpm_module {
    uint32_t struct_size; /* sizeof(plexus_dpm_module_t) as the component was built */
    uint16_t major;       /* PLEXUS_DPM_MAJOR / MINOR the component was built against */
    uint16_t minor;

    /* Once, inside MPI_Init after the runtime's first fence, collectively over world (all of
     * this job): a spawned job meets its parents here; *parent is then the inter-communicator
     * MPI_Comm_get_parent returns (NULL when the job was not spawned). */
    int (*init)(plexus_dpm_module_t *self, const plexus_dpm_services_t *services,
                plexus_coll_comm_t *world, plexus_coll_comm_t **parent);
    /* In MPI_Finalize, before the component is closed: close open ports, forget names. */
    int (*finalize)(plexus_dpm_module_t *self);

    /* MPI_Comm_spawn / MPI_Comm_spawn_multiple (n commands). errcodes has one entry per
     * process started (the sum of maxprocs), filled at every process of comm; NULL when the
     * user passed MPI_ERRCODES_IGNORE. */
    int (*spawn)(plexus_dpm_module_t *self, int n, const plexus_dpm_command_t cmds[], int root,
                 plexus_coll_comm_t *comm, plexus_coll_comm_t **intercomm, int errcodes[]);

    /* Ports: a name this process can be reached at (what a peer needs to connect: the
     * component's address, a secret for the connection). */
    int (*open_port)(plexus_dpm_module_t *self, char port[PLEXUS_DPM_PORT_MAX]);
    int (*close_port)(plexus_dpm_module_t *self, const char *port);
    int (*accept)(plexus_dpm_module_t *self, const char *port, int root, plexus_coll_comm_t *comm,
                  plexus_coll_comm_t **intercomm);
    int (*connect)(plexus_dpm_module_t *self, const char *port, int root, plexus_coll_comm_t *comm,
                   plexus_coll_comm_t **intercomm);
    /* MPI_Comm_join: fd is a connected socket to the other process (which calls join too). */
    int (*join)(plexus_dpm_module_t *self, int fd, plexus_coll_comm_t **intercomm);
    /* MPI_Comm_disconnect: the MPI layer has completed the traffic on intercomm; the component
     * drops what it holds for it, then the core frees the communicator and the endpoints no other
     * communicator uses. Collective over the inter-communicator's both groups. */
    int (*disconnect)(plexus_dpm_module_t *self, plexus_coll_comm_t *intercomm);

    /* MPI_Publish_name / MPI_Lookup_name / MPI_Unpublish_name (NULL: services->publish etc.,
     * the job manager's name service, are used directly). */
    int (*publish)(plexus_dpm_module_t *self, const char *service, const char *port);
    int (*lookup)(plexus_dpm_module_t *self, const char *service, char port[PLEXUS_DPM_PORT_MAX]);
    int (*unpublish)(plexus_dpm_module_t *self, const char *service);
};

#ifdef __cplusplus
}
#endif

#endif /* PLEXUS_DPM_H */
