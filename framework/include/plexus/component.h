/* The plugin boundary: the descriptor every component exports and the host API it calls back.
 * Plain C, so that a component built by another compiler, or written in C, still loads. */
#ifndef PLEXUS_COMPONENT_H
#define PLEXUS_COMPONENT_H

#include <stddef.h>
#include <stdint.h>

#include <plexus/status.h>
#include <plexus/param.h>
#include <plexus/output.h>
#include <plexus/topology.h>

#ifdef __cplusplus
extern "C" {
#endif

/* "PLXC": the first four bytes of every descriptor; anything else is not a Plexus component. */
#define PLEXUS_COMPONENT_MAGIC 0x504C5843u

/* The MCA ABI. Major changes break every component (the plugin folder is named after it:
 * plugins-<major>); minor additions keep old components loadable (a component built for minor m
 * loads into a core of minor >= m). */
#define PLEXUS_MCA_ABI_MAJOR 1
#define PLEXUS_MCA_ABI_MINOR 0

/* Priority bands, so that third parties rank themselves consistently (ties are broken by name). */
#define PLEXUS_PRIORITY_FALLBACK_MAX 19  /*  0-19: portable fallback (basic, self, tcp)         */
#define PLEXUS_PRIORITY_GENERIC_MAX 49   /* 20-49: generic accelerated (sm, shm_inter)          */
#define PLEXUS_PRIORITY_HARDWARE_MAX 89  /* 50-89: hardware-specific (openib, sci, mcast)       */
#define PLEXUS_PRIORITY_MAX 100          /* 90-100: reserved for users forcing a choice         */

#define PLEXUS_REASON_MAX 256

typedef struct plexus_host_api plexus_host_api_t;

/* Why a component cannot run here, in words a user can act on ("no InfiniBand device found"). */
typedef struct plexus_reason {
    char text[PLEXUS_REASON_MAX];
} plexus_reason_t;

/* The answer of query(): how much the component wants to serve the scope, and the module that
 * serves it (the framework's module struct, see btl.h, coll.h, ...). */
typedef struct plexus_query_result {
    int priority;         /* 0-100, see the bands above */
    void *module;         /* framework module, or NULL where the framework needs none */
    plexus_reason_t why;  /* filled when query returns PLEXUS_ERR_NOT_AVAILABLE */
} plexus_query_result_t;

/* The descriptor. A component exports exactly one, as
 *   const plexus_component_t plexus_<framework>_<name>_component;
 * in a file named plexus_<framework>_<name>.so. The core checks magic, struct_size, the ABI
 * versions and both names before it calls any function pointer. */
typedef struct plexus_component {
    uint32_t magic;        /* PLEXUS_COMPONENT_MAGIC */
    uint32_t struct_size;  /* sizeof(plexus_component_t) as the component was built */
    uint16_t abi_major;    /* PLEXUS_MCA_ABI_MAJOR the component was built against */
    uint16_t abi_minor;

    const char *framework;     /* "btl", "coll", "osc", "dpm", "reconf" */
    uint16_t framework_major;  /* the framework interface version (PLEXUS_BTL_MAJOR, ...) */
    uint16_t framework_minor;

    const char *name;  /* component name: [a-z0-9_]+, unique in its framework */
    uint16_t version_major;
    uint16_t version_minor;
    uint16_t version_release;
    uint16_t reserved0;

    const char *package;      /* the distribution package that ships it, e.g. "plexus-btl-openib" */
    const char *license;      /* SPDX identifier */
    const char *description;  /* one line for plexus_info */

    /* Register parameters; called for every component found, selected or not, so that
     * plexus_info can show them. NULL when the component has none. */
    int (*register_params)(const plexus_host_api_t *host, const struct plexus_component *self);
    /* Acquire process-wide resources. PLEXUS_ERR_NOT_AVAILABLE + why: cannot run here. */
    int (*open)(const plexus_host_api_t *host, plexus_reason_t *why);
    /* Release what open acquired. */
    int (*close)(void);
    /* Offer a module for a scope (NULL for process-wide frameworks, the communicator or window
     * description for coll and osc). PLEXUS_ERR_NOT_AVAILABLE + result->why: not for this scope. */
    int (*query)(const void *scope, plexus_query_result_t *result);
} plexus_component_t;

/* Progress callbacks return how many events they completed; 0 means "nothing happened", which
 * lets the engine back off. */
typedef int (*plexus_progress_fn_t)(void *ctx);

/* What the core offers components. Versioned: members are only ever appended, so an older core
 * hands over a shorter table; before using a member newer than 1.0 a component checks that
 * struct_size covers it and that it is set (PLEXUS_HOST_HAS, plexus/sdk/host.hpp), never
 * struct_size against its own sizeof(plexus_host_api_t). */
#define PLEXUS_HOST_API_MAJOR 1
#define PLEXUS_HOST_API_MINOR 6  /* 1.1: job info, secret, shm prefix, modex, fence, abort, wait
                                  * 1.2: mem_bind_local
                                  * 1.3: shm, dgram service tables; param_is_set
                                  * 1.4: proc_on_this_node
                                  * 1.5: ipv4_interfaces
                                  * 1.6: peer_secrets */

/* Who this process is in its job (host API 1.1). The caller sets struct_size to
 * sizeof(plexus_job_info_t) as it was built; the core fills what both know. */
#define PLEXUS_NSPACE_MAX 256
#define PLEXUS_JOB_SECRET_LEN 32
/* A secret shared with a process of another job (host API 1.6, peer_secrets). */
#define PLEXUS_PEER_SECRET_LEN 32
typedef struct plexus_job_info {
    uint32_t struct_size;
    uint32_t rank;        /* in the job (namespace) */
    uint32_t size;        /* processes in the job */
    uint32_t local_rank;  /* among the job's processes on this node */
    uint32_t local_size;
    uint32_t node_id;
    uint32_t appnum;
    /* 1 when this node runs more processes of the job than it has CPUs online: a waiting process
     * then waits for others to be scheduled, and components pick protocols and algorithms that
     * need fewer of them (0 from cores before it was filled, as the member was reserved). */
    int32_t oversubscribed;
    int64_t universe_size;           /* -1 when the launcher does not say */
    char nspace[PLEXUS_NSPACE_MAX];  /* the job's namespace, NUL-terminated */
    /* CPUs online on this node, what `oversubscribed` compares local_size with; how crowded the
     * node is decides some protocols (0 from cores before it was filled). */
    uint32_t cpus_online;
} plexus_job_info_t;

/* The service tables of host API 1.3, each in its own header. */
typedef struct plexus_shm_services plexus_shm_services_t;     /* plexus/shm.h */
typedef struct plexus_dgram_services plexus_dgram_services_t; /* plexus/dgram.h */

/* One IPv4 address of a network interface that is up (host API 1.5). A fixed layout: a later
 * minor adds a call rather than change it. */
#define PLEXUS_IFNAME_MAX 16      /* IFNAMSIZ */
#define PLEXUS_IF_LOOPBACK 0x1u   /* IFF_LOOPBACK */
#define PLEXUS_IF_MULTICAST 0x2u  /* IFF_MULTICAST */
typedef struct plexus_ipv4_interface {
    char name[PLEXUS_IFNAME_MAX]; /* NUL-terminated */
    uint32_t addr;                /* host byte order */
    uint32_t netmask;             /* host byte order */
    uint32_t index;               /* if_nametoindex(name) */
    uint32_t mtu;                 /* 0 when the kernel does not say */
    uint32_t flags;               /* PLEXUS_IF_* */
} plexus_ipv4_interface_t;

/* The condition a progress wait waits for: nonzero when done. */
typedef int (*plexus_done_fn_t)(void *ctx);

struct plexus_host_api {
    uint32_t struct_size;
    uint16_t major;
    uint16_t minor;

    /* Parameters: register one of self's parameters (full name <framework>_<component>_<name>);
     * read any parameter by its full name. */
    int (*param_register)(const plexus_component_t *self, const plexus_param_desc_t *desc);
    int (*param_lookup)(const char *full_name, plexus_param_value_t *out);

    /* Output: level PLEXUS_LOG_ERROR/WARN always print; verbose levels print when at or below
     * <framework>_base_verbose. */
    void (*log)(const plexus_component_t *self, int level, const char *fmt, ...)
#if defined(__GNUC__)
        __attribute__((format(printf, 3, 4)))
#endif
        ;
    int (*verbosity)(const plexus_component_t *self);

    /* Progress: callbacks the engine polls while anybody waits. */
    int (*progress_register)(plexus_progress_fn_t fn, void *ctx);
    int (*progress_unregister)(plexus_progress_fn_t fn, void *ctx);

    /* Topology of this node (hwloc underneath). */
    int (*topology_summary)(plexus_topology_summary_t *out);
    int (*topology_relation)(const char *cpuset_a, const char *cpuset_b, unsigned *shared_levels);
    int (*topology_self_cpuset)(char *buf, size_t len);

    /* ---- Added in 1.1 (check PLEXUS_HOST_HAS(host, member) before use). All of these need the
     * runtime: PLEXUS_ERR_NOT_AVAILABLE before it has started. ---- */

    /* This process in its job; out->struct_size must be set by the caller. */
    int (*job_info)(plexus_job_info_t *out);
    /* The job's PLEXUS_JOB_SECRET_LEN random bytes, shared by every process of the job (len >=
     * PLEXUS_JOB_SECRET_LEN), known whenever the runtime runs, so already in open(): when the
     * launcher does not provide it, rank 0 makes it and the runtime shares it at its start. */
    int (*job_secret)(uint8_t *buf, size_t len);
    /* "plexus-<16 hex digits>-", NUL-terminated: name every POSIX shared-memory object of the
     * job "/" prefix "<anything>" and create it 0600, so the launcher can remove it. */
    int (*shm_name_prefix)(char *buf, size_t len);
    /* Business cards, keyed by the calling component (plexus.card.<framework>_<component>). Put
     * before the init fence to reach every peer of the job; a later put is committed at once.
     * get: the card self's counterpart in process (nspace, rank) put; nspace NULL is this job.
     * *data stays valid until the runtime finalizes, except a card of another job's process:
     * that one goes when MPI_Comm_disconnect leaves no communicator reaching the process (after
     * every BTL's del_procs of it), so read it in add_procs and keep no pointer into it; a later
     * get fetches it again. timeout_ms < 0: runtime_modex_timeout_ms. */
    int (*modex_put)(const plexus_component_t *self, const void *data, size_t len);
    int (*modex_get)(const plexus_component_t *self, const char *nspace, uint32_t rank,
                     const void **data, size_t *len, int timeout_ms);
    /* A barrier of every process of this job (the first one is the init fence, which commits
     * the cards). */
    int (*fence)(void);
    /* Ends the whole job: reported by the launcher with status and msg. Does not return. */
    void (*abort)(int status, const char *msg);
    /* Polls the progress engine, backing off when idle, until done(ctx) is nonzero or
     * timeout_ms (< 0: forever) has passed: PLEXUS_SUCCESS or PLEXUS_ERR_TIMEOUT. */
    int (*progress_wait)(plexus_done_fn_t done, void *ctx, int timeout_ms);

    /* ---- Added in 1.2. ---- */

    /* Places [addr, addr + len) on the NUMA node(s) this process is bound to (hwloc area
     * binding), so that memory this process polls is local to it. PLEXUS_ERR_NOT_AVAILABLE where
     * the system cannot bind memory; the caller goes on with the kernel's first-touch placement. */
    int (*mem_bind_local)(void *addr, size_t len);

    /* ---- Added in 1.3 (check with PLEXUS_HOST_HAS(host, member), plexus/sdk/host.hpp). ---- */

    /* Job-private shared segments and single copy between the processes of a node
     * (plexus/shm.h). NULL where the core was built without them. */
    const plexus_shm_services_t *shm;
    /* Authenticated unicast and multicast datagrams over UDP/IP or InfiniBand UD
     * (plexus/dgram.h). NULL where the core was built without them. */
    const plexus_dgram_services_t *dgram;
    /* 1 when the user set the parameter full_name (command line, environment, a parameter file),
     * 0 when it still has its default, PLEXUS_ERR_NOT_FOUND when no such parameter exists. */
    int (*param_is_set)(const char *full_name);

    /* ---- Added in 1.4. ---- */

    /* Whether process (nspace, rank) runs on this node, as the launcher's PMIx server says
     * (PMIX_LOCAL_PEERS), whichever launcher started the job: 1 yes, 0 no; nspace NULL is this
     * job. PLEXUS_ERR_NOT_FOUND when the runtime does not know (another job, a rank beyond the
     * job's size): the caller decides by its own means (a node name in its business card). */
    int (*proc_on_this_node)(const char *nspace, uint32_t rank);

    /* ---- Added in 1.5. ---- */

    /* The IPv4 addresses of the interfaces that are up, in the kernel's order: the lookup behind
     * runtime_dgram_if, so that every component names and matches interfaces alike. Fills at
     * most max entries of out and sets *count to how many there are (more than max: call again
     * with more room). PLEXUS_ERR_NOT_AVAILABLE when the system cannot list them. */
    int (*ipv4_interfaces)(plexus_ipv4_interface_t *out, size_t max, size_t *count);

    /* ---- Added in 1.6. ---- */

    /* The secrets this process shares with process (nspace, rank) of another job, newest first:
     * one per meeting of two groups that both took part in (MPI_Comm_spawn, accept/connect,
     * join), agreed by the dpm component and registered when the inter-communicator was built;
     * dropped when MPI_Comm_disconnect leaves no communicator reaching the process. What proves a
     * connection between jobs (the job secret, job_secret, only ever serves within the job).
     * Copies at most max secrets of PLEXUS_PEER_SECRET_LEN bytes into buf (max *
     * PLEXUS_PEER_SECRET_LEN bytes) and sets *count to how many there are.
     * PLEXUS_ERR_NOT_FOUND (and *count 0) when there is none: no meeting joined this process and
     * that one, nspace is this job's, or a dpm component before dpm services 1.4 agreed none. */
    int (*peer_secrets)(const char *nspace, uint32_t rank, uint8_t *buf, size_t max, size_t *count);
};

/* Helpers for writing a descriptor. */
#if defined(__GNUC__)
#define PLEXUS_EXPORT __attribute__((visibility("default")))
#else
#define PLEXUS_EXPORT
#endif

#define PLEXUS_COMPONENT_SYMBOL(fw, name) plexus_##fw##_##name##_component

#ifdef __cplusplus
#define PLEXUS_DECLARE_COMPONENT(fw, name) \
    extern "C" PLEXUS_EXPORT const plexus_component_t PLEXUS_COMPONENT_SYMBOL(fw, name)
#else
#define PLEXUS_DECLARE_COMPONENT(fw, name) \
    PLEXUS_EXPORT const plexus_component_t PLEXUS_COMPONENT_SYMBOL(fw, name)
#endif

/* Fills the fields every descriptor shares; use it first in an initializer list. */
#define PLEXUS_COMPONENT_INIT(fw, fw_major, fw_minor, cname, vmaj, vmin, vrel)                \
    PLEXUS_COMPONENT_MAGIC, (uint32_t)sizeof(plexus_component_t), PLEXUS_MCA_ABI_MAJOR,       \
        PLEXUS_MCA_ABI_MINOR, #fw, (fw_major), (fw_minor), #cname, (vmaj), (vmin), (vrel), 0

#ifdef __cplusplus
}
#endif

#endif /* PLEXUS_COMPONENT_H */
