/* OSC (one-sided communication) framework interface. Per-window selection: every admitted osc
 * component is queried with the window being created and answers with a module for it; the MPI
 * layer tries the modules by priority: the first whose win_init succeeds on every process of the
 * group serves the window (the others are destroyed unused), a refusal anywhere moves all
 * processes to the next one together.
 *
 * Components do not see mpi.h: communicators, datatypes and operations are the opaque handles of
 * coll.h, and everything a module does with them goes through the services the scope carries
 * (the coll services of the window's own communicator, the BTL paths to each peer, datatype
 * packing and encoding, predefined operations by number). Ranks are ranks of the window's group;
 * displacements are in units of the target's disp_unit, as in MPI; error classes, lock types and
 * assert flags have their mpi.h values. */
#ifndef PLEXUS_OSC_H
#define PLEXUS_OSC_H

#include <stddef.h>
#include <stdint.h>

#include <plexus/btl.h>
#include <plexus/coll.h>
#include <plexus/component.h>

#ifdef __cplusplus
extern "C" {
#endif

#define PLEXUS_OSC_MAJOR 1
#define PLEXUS_OSC_MINOR 2 /* 1.2: services 1.1 (int_type, op_sum); 1.1: window modules, services; 1.0 had the scope only */

/* ------------------------------------------------------------------ opaque objects */
typedef struct plexus_osc_win plexus_osc_win_t; /* a window, as the MPI layer knows it */

/* ------------------------------------------------------------------ constants (mpi.h values) */
#define PLEXUS_OSC_FLAVOR_CREATE 1   /* MPI_Win_create: the user's memory */
#define PLEXUS_OSC_FLAVOR_ALLOCATE 2 /* MPI_Win_allocate: the module allocates */
#define PLEXUS_OSC_FLAVOR_DYNAMIC 3  /* MPI_Win_create_dynamic: memory attached later */

#define PLEXUS_OSC_LOCK_EXCLUSIVE 1 /* MPI_LOCK_EXCLUSIVE */
#define PLEXUS_OSC_LOCK_SHARED 2    /* MPI_LOCK_SHARED */

/* assert bits of fence, post, start and lock (MPI_MODE_*): promises the module may exploit */
#define PLEXUS_OSC_MODE_NOCHECK 1
#define PLEXUS_OSC_MODE_NOPRECEDE 2
#define PLEXUS_OSC_MODE_NOPUT 4
#define PLEXUS_OSC_MODE_NOSTORE 8
#define PLEXUS_OSC_MODE_NOSUCCEED 16

/* Results of module functions and services: MPI error classes (0 is success), plus DECLINE. */
#define PLEXUS_OSC_SUCCESS 0
#define PLEXUS_OSC_ERR_RANK 6           /* MPI_ERR_RANK */
#define PLEXUS_OSC_ERR_OTHER 16         /* MPI_ERR_OTHER */
#define PLEXUS_OSC_ERR_INTERN 17        /* MPI_ERR_INTERN */
#define PLEXUS_OSC_ERR_DISP 26          /* MPI_ERR_DISP: outside the target's window */
#define PLEXUS_OSC_ERR_LOCKTYPE 37      /* MPI_ERR_LOCKTYPE */
#define PLEXUS_OSC_ERR_NO_MEM 39        /* MPI_ERR_NO_MEM */
#define PLEXUS_OSC_ERR_RMA_CONFLICT 46  /* MPI_ERR_RMA_CONFLICT: conflicting lock types */
#define PLEXUS_OSC_ERR_RMA_SYNC 47      /* MPI_ERR_RMA_SYNC: wrong epoch, call outside one */
#define PLEXUS_OSC_ERR_UNSUPPORTED 52   /* MPI_ERR_UNSUPPORTED_OPERATION */
/* win_init only: "not this window"; the next module is tried. */
#define PLEXUS_OSC_DECLINE (-1)

/* ------------------------------------------------------------------ services */
/* One BTL's way to one peer (the BML's order: best first). */
typedef struct plexus_osc_path {
    plexus_btl_module_t *btl;
    plexus_btl_endpoint_t *ep;
} plexus_osc_path_t;

/* Where memory from MPI_Alloc_mem lies: the file backing it (a memfd another process of the node
 * may map, e.g. after pidfd_getfd) and the offset of the address in that file. */
typedef struct plexus_osc_mem_range {
    uint32_t struct_size; /* set by the caller */
    int fd;
    uint64_t offset;
    size_t bytes;         /* of the allocation from the address on */
} plexus_osc_mem_range_t;

#define PLEXUS_OSC_SERVICES_MAJOR 1
#define PLEXUS_OSC_SERVICES_MINOR 1 /* 1.1: int_type, op_sum */
/* op_id's number of MPI_REPLACE (fixed since services 1.0). */
#define PLEXUS_OSC_OP_REPLACE 12

/* What the MPI layer offers osc modules; valid from query() until MPI_Finalize. Functions return
 * MPI error classes unless said otherwise. */
typedef struct plexus_osc_services {
    uint32_t struct_size;
    uint16_t major;
    uint16_t minor;

    /* The coll services: point-to-point and collectives on the scope's comm (fence's counts by
     * reduce_scatter, handles by allgather), datatype layouts, local typed copies, op_apply. */
    const plexus_coll_services_t *coll;

    /* Peers. proc_of: the id BTL messages from that rank carry (plexus_btl_recv_desc_t.src);
     * rank_of: back, -1 when the process is not in the window's group. paths: the BTL paths to
     * rank, best first, at most max of them; returns how many there are. */
    uint32_t (*proc_of)(plexus_osc_win_t *win, int rank);
    int (*rank_of)(plexus_osc_win_t *win, uint32_t proc);
    int (*paths)(plexus_osc_win_t *win, int rank, plexus_osc_path_t out[], int max);
    /* Receives the messages of one tag of PLEXUS_BTL_TAG_OSC_FIRST..LAST from every BTL (fn
     * NULL removes it). The tag space is the framework's, not a window's: a component registers
     * at open or first window and finds the window from its own header. */
    int (*register_recv)(uint8_t tag, plexus_btl_recv_fn_t fn, void *ctx);

    /* Datatypes beyond coll's dtype_info. pack copies bytes [offset, offset + len) of the packed
     * form of (count, type) at buf into out; unpack is its inverse: a module moves a derived
     * layout fragment by fragment. The target's datatype travels as bytes: dtype_encode writes
     * type's layout into buf (*len: room in, bytes used out; PLEXUS_OSC_ERR_NO_MEM with the
     * size needed in *len), dtype_decode makes a handle of it at the target, dtype_release
     * frees such a handle (and only such). */
    int (*pack)(const void *buf, int count, plexus_coll_dtype_t *type, size_t offset, void *out,
                size_t len);
    int (*unpack)(void *buf, int count, plexus_coll_dtype_t *type, size_t offset, const void *in,
                  size_t len);
    int (*dtype_encode)(plexus_coll_dtype_t *type, void *buf, size_t *len);
    int (*dtype_decode)(const void *buf, size_t len, plexus_coll_dtype_t **type);
    void (*dtype_release)(plexus_coll_dtype_t *type);

    /* Predefined operations by a number that can travel in a message (accumulate takes no user
     * operation): op_id returns -1 for anything else; op_by_id NULL for an unknown number.
     * MPI_REPLACE's number is PLEXUS_OSC_OP_REPLACE (it reads nothing at the target). */
    int (*op_id)(plexus_coll_op_t *op);
    plexus_coll_op_t *(*op_by_id)(int id);

    /* Memory. alloc_mem / free_mem are MPI_Alloc_mem / MPI_Free_mem (ALLOCATE windows take their
     * memory here); mem_range: 1 and where [addr, addr + len) lies when it is such memory,
     * 0 otherwise (a window over static memory). */
    void *(*alloc_mem)(size_t size);
    int (*free_mem)(void *base);
    int (*mem_range)(const void *addr, size_t len, plexus_osc_mem_range_t *out);

    /* The info the window was created with (no_locks, accumulate_ordering, same_size, ...): the
     * value, NUL-terminated, into buf; 0 when the key is absent, 1 when found, negative when buf
     * is too small. */
    int (*info_get)(plexus_osc_win_t *win, const char *key, char *buf, size_t len);
    /* Says what was wrong with the call that is about to return an error class on win: the MPI
     * layer hands the message with the class to the window's error handler. */
    void (*set_error)(plexus_osc_win_t *win, const char *fmt, ...)
#if defined(__GNUC__)
        __attribute__((format(printf, 2, 3)))
#endif
        ;
    /* osc_base_verbose-aware tracing, as the host API's log (level PLEXUS_LOG_*). */
    int (*verbosity)(void);

    /* ---- services 1.1 (framework 1.2; members only appended: check PLEXUS_OSC_SERVICES_HAVE) */
    /* MPI_INT and MPI_SUM, for counts summed by the coll services (the paper's fence: a
     * reduce_scatter of the per-target operation counts). */
    plexus_coll_dtype_t *int_type;
    plexus_coll_op_t *op_sum;
} plexus_osc_services_t;

/* Whether services table s (of any 1.x minor) has member m. */
#define PLEXUS_OSC_SERVICES_HAVE(s, m)                                                              \
    ((s)->struct_size >= offsetof(plexus_osc_services_t, m) + sizeof((s)->m))

/* ------------------------------------------------------------------ query scope */
/* query() scope for osc: the window being created. Members after flavor are 1.1 (check
 * struct_size). plexus_info's dry runs (--select) pass win, comm and services NULL: the component
 * answers with its priority as usual; such a module is destroyed unused. */
typedef struct plexus_osc_scope {
    uint32_t struct_size;
    uint64_t size;         /* bytes this process exposes (0 for DYNAMIC) */
    int disp_unit;
    int comm_size;
    int local_peers;       /* members on this node, incl. the caller */
    int flavor;            /* PLEXUS_OSC_FLAVOR_* */
    /* 1.1 */
    int rank;                          /* this process in the window's group */
    void *base;                        /* CREATE: the memory exposed (NULL when size is 0) */
    plexus_osc_win_t *win;             /* the window */
    plexus_coll_comm_t *comm;          /* a private duplicate of the window's communicator */
    const plexus_osc_services_t *services;
} plexus_osc_scope_t;

/* ------------------------------------------------------------------ the module */
struct plexus_osc_module;
typedef struct plexus_osc_module plexus_osc_module_t;

/* What query() returns (plexus_query_result_t::module): one module per window, for the scope it
 * was queried with. The component allocates it and frees it in destroy.
 *
 * Every function is called on one thread at a time (the MPI layer is FUNNELED). The MPI layer has
 * checked the arguments before a call: handles, ranks, counts, that origin and target types have
 * the same signature, lock types and assert bits; the module checks what only it knows (epochs,
 * displacements against the target's size) and reports those through services->set_error. A
 * function a module leaves NULL answers PLEXUS_OSC_ERR_UNSUPPORTED to the user. */
struct plexus_osc_module {
    uint32_t struct_size; /* sizeof(plexus_osc_module_t) as the component was built */
    uint16_t major;       /* PLEXUS_OSC_MAJOR / MINOR the component was built against */
    uint16_t minor;

    /* Window life. win_init is collective over the group: it makes the window for the scope
     * (ALLOCATE: allocates scope->size bytes and returns them in *base; CREATE, DYNAMIC: *base
     * is left alone). PLEXUS_OSC_DECLINE or an error: the MPI layer agrees on the outcome with
     * the other processes, then calls destroy. win_free is collective (MPI_Win_free: after the
     * last epoch; frees what win_init allocated); destroy follows it. destroy is the last call.
     * A win_free that answers PLEXUS_OSC_ERR_RMA_SYNC (called inside an epoch) must have changed
     * nothing: the MPI layer keeps the window, usable, and destroy does not follow. */
    int (*win_init)(plexus_osc_module_t *self, void **base);
    int (*win_free)(plexus_osc_module_t *self);
    void (*destroy)(plexus_osc_module_t *self);
    /* DYNAMIC windows (MPI_Win_attach / MPI_Win_detach); NULL for a module without them. */
    int (*attach)(plexus_osc_module_t *self, void *base, size_t size);
    int (*detach)(plexus_osc_module_t *self, const void *base);

    /* Communication, MPI's arguments in MPI's order after self (the datatypes are the origin's
     * handles: a module ships a target type's description with dtype_encode when it is not
     * contiguous). Completion follows the epoch rules: the origin buffer may be reused, and the
     * target memory holds the data, only after the synchronisation that ends the epoch (or a
     * flush). */
    int (*put)(plexus_osc_module_t *self, const void *origin, int origin_count,
               plexus_coll_dtype_t *origin_type, int target, ptrdiff_t target_disp, int target_count,
               plexus_coll_dtype_t *target_type);
    int (*get)(plexus_osc_module_t *self, void *origin, int origin_count, plexus_coll_dtype_t *origin_type,
               int target, ptrdiff_t target_disp, int target_count, plexus_coll_dtype_t *target_type);
    /* op is predefined (MPI_REPLACE included); every element is updated atomically with respect
     * to other accumulates with the same basic type (MPI's rule). */
    int (*accumulate)(plexus_osc_module_t *self, const void *origin, int origin_count,
                      plexus_coll_dtype_t *origin_type, int target, ptrdiff_t target_disp,
                      int target_count, plexus_coll_dtype_t *target_type, plexus_coll_op_t *op);
    /* MPI-3 atomics (NULL until a module has them; MPI_NO_OP is an op like the others). */
    int (*get_accumulate)(plexus_osc_module_t *self, const void *origin, int origin_count,
                          plexus_coll_dtype_t *origin_type, void *result, int result_count,
                          plexus_coll_dtype_t *result_type, int target, ptrdiff_t target_disp,
                          int target_count, plexus_coll_dtype_t *target_type, plexus_coll_op_t *op);
    int (*fetch_and_op)(plexus_osc_module_t *self, const void *origin, void *result,
                        plexus_coll_dtype_t *type, int target, ptrdiff_t target_disp, plexus_coll_op_t *op);
    int (*compare_and_swap)(plexus_osc_module_t *self, const void *origin, const void *compare,
                            void *result, plexus_coll_dtype_t *type, int target, ptrdiff_t target_disp);

    /* Active target. fence is collective; start/post take the ranks of the group MPI_Win_start /
     * MPI_Win_post were given, ascending. test sets *flag to 1 when wait would not block (and
     * then has done what wait does). */
    int (*fence)(plexus_osc_module_t *self, int assert_bits);
    int (*start)(plexus_osc_module_t *self, int n, const int ranks[], int assert_bits);
    int (*complete)(plexus_osc_module_t *self);
    int (*post)(plexus_osc_module_t *self, int n, const int ranks[], int assert_bits);
    int (*wait)(plexus_osc_module_t *self);
    int (*test)(plexus_osc_module_t *self, int *flag);

    /* Passive target. lock may return before the lock is granted (communication then starts at
     * the grant); unlock returns when every operation of the epoch is complete at the target. */
    int (*lock)(plexus_osc_module_t *self, int lock_type, int target, int assert_bits);
    int (*unlock)(plexus_osc_module_t *self, int target);
    /* MPI-3 passive target (NULL until a module has them). flush: every operation to target
     * is complete at both ends; flush_local: at the origin only (its buffers may be reused);
     * target -1: to every target (flush_all, flush_local_all). sync: MPI_Win_sync. */
    int (*lock_all)(plexus_osc_module_t *self, int assert_bits);
    int (*unlock_all)(plexus_osc_module_t *self);
    int (*flush)(plexus_osc_module_t *self, int target);
    int (*flush_local)(plexus_osc_module_t *self, int target);
    int (*sync)(plexus_osc_module_t *self);
};

#ifdef __cplusplus
}
#endif

#endif /* PLEXUS_OSC_H */
