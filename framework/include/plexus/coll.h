/* COLL (collectives) framework interface. Per-object selection: every communicator queries every
 * admitted coll component; each answers with a module that says, function by function, which
 * collectives it serves and at what priority. The MPI layer orders the modules per function and
 * calls the first; a module that cannot serve one call (message size, datatype, communicator
 * kind) returns PLEXUS_COLL_DECLINE before it has sent or written anything, and the call goes to
 * the next module: the fallback chain ends with coll_basic, which serves everything.
 *
 * Components do not see mpi.h: communicators, datatypes, operations and requests are opaque
 * pointers here, and everything a component does with them goes through the services table the
 * scope carries (point-to-point in a tag space reserved for collectives, datatype layout, local
 * copies, reductions, and collectives of other communicators). Counts, displacements, ranks,
 * MPI_ROOT / MPI_PROC_NULL / MPI_IN_PLACE and the error classes have their mpi.h values. */
#ifndef PLEXUS_COLL_H
#define PLEXUS_COLL_H

#include <stddef.h>
#include <stdint.h>

#include <plexus/component.h>

#ifdef __cplusplus
extern "C" {
#endif

#define PLEXUS_COLL_MAJOR 1
#define PLEXUS_COLL_MINOR 1 /* 1.1: modules, services; 1.0 had the scope only */

/* ------------------------------------------------------------------ opaque objects */
typedef struct plexus_coll_comm plexus_coll_comm_t;       /* a communicator */
typedef struct plexus_coll_dtype plexus_coll_dtype_t;     /* a committed datatype */
typedef struct plexus_coll_op plexus_coll_op_t;           /* a reduction operation */
typedef struct plexus_coll_request plexus_coll_request_t; /* a point-to-point operation */

/* ------------------------------------------------------------------ constants (mpi.h values) */
#define PLEXUS_COLL_IN_PLACE ((void *)1) /* MPI_IN_PLACE */
#define PLEXUS_COLL_ROOT (-4)            /* MPI_ROOT */
#define PLEXUS_COLL_PROC_NULL (-2)       /* MPI_PROC_NULL */
#define PLEXUS_COLL_ANY_SOURCE (-1)      /* MPI_ANY_SOURCE */

/* Results of module functions and services: MPI error classes (0 is success), plus DECLINE. */
#define PLEXUS_COLL_SUCCESS 0
#define PLEXUS_COLL_ERR_TRUNCATE 15     /* MPI_ERR_TRUNCATE: peers disagree on counts */
#define PLEXUS_COLL_ERR_OTHER 16        /* MPI_ERR_OTHER */
#define PLEXUS_COLL_ERR_INTERN 17       /* MPI_ERR_INTERN */
#define PLEXUS_COLL_ERR_NO_MEM 39       /* MPI_ERR_NO_MEM */
#define PLEXUS_COLL_ERR_UNSUPPORTED 52  /* MPI_ERR_UNSUPPORTED_OPERATION */
/* "Not this call": the next module in the communicator's chain serves it. Only before the
 * module has sent, received or written anything for the call. */
#define PLEXUS_COLL_DECLINE (-1)

/* Tags a component may give its point-to-point messages: 0 .. PLEXUS_COLL_TAG_MAX. The library
 * maps them into a space no user message and no other layer uses; messages of one collective
 * call never meet another's as long as every process calls collectives in the same order (MPI
 * requires that) and a component waits for its messages before it returns. */
#define PLEXUS_COLL_TAG_MAX 1023

/* ------------------------------------------------------------------ the functions */
/* The collective functions, as indices into plexus_coll_module_t::priority. */
enum plexus_coll_function {
    PLEXUS_COLL_BARRIER = 0,
    PLEXUS_COLL_BCAST,
    PLEXUS_COLL_REDUCE,
    PLEXUS_COLL_ALLREDUCE,
    PLEXUS_COLL_GATHER,
    PLEXUS_COLL_GATHERV,
    PLEXUS_COLL_SCATTER,
    PLEXUS_COLL_SCATTERV,
    PLEXUS_COLL_ALLGATHER,
    PLEXUS_COLL_ALLGATHERV,
    PLEXUS_COLL_ALLTOALL,
    PLEXUS_COLL_ALLTOALLV,
    PLEXUS_COLL_ALLTOALLW,
    PLEXUS_COLL_REDUCE_SCATTER,
    PLEXUS_COLL_REDUCE_SCATTER_BLOCK,
    PLEXUS_COLL_SCAN,
    PLEXUS_COLL_EXSCAN,
    PLEXUS_COLL_FUNCTION_COUNT
};

struct plexus_coll_module;
typedef struct plexus_coll_module plexus_coll_module_t;

/* Every function has MPI's arguments in MPI's order after the module that serves it (self). The
 * MPI layer has checked them (handles, counts, root, op for the type, MPI_IN_PLACE where MPI
 * allows it) before the call. On an inter-communicator, root is MPI_ROOT, MPI_PROC_NULL or a
 * rank of the remote group, as MPI says. */
typedef struct plexus_coll_functions {
    int (*barrier)(plexus_coll_module_t *self, plexus_coll_comm_t *comm);
    int (*bcast)(plexus_coll_module_t *self, void *buf, int count, plexus_coll_dtype_t *type, int root,
                 plexus_coll_comm_t *comm);
    int (*reduce)(plexus_coll_module_t *self, const void *sendbuf, void *recvbuf, int count,
                  plexus_coll_dtype_t *type, plexus_coll_op_t *op, int root, plexus_coll_comm_t *comm);
    int (*allreduce)(plexus_coll_module_t *self, const void *sendbuf, void *recvbuf, int count,
                     plexus_coll_dtype_t *type, plexus_coll_op_t *op, plexus_coll_comm_t *comm);
    int (*gather)(plexus_coll_module_t *self, const void *sendbuf, int sendcount, plexus_coll_dtype_t *sendtype,
                  void *recvbuf, int recvcount, plexus_coll_dtype_t *recvtype, int root, plexus_coll_comm_t *comm);
    int (*gatherv)(plexus_coll_module_t *self, const void *sendbuf, int sendcount, plexus_coll_dtype_t *sendtype,
                   void *recvbuf, const int recvcounts[], const int displs[], plexus_coll_dtype_t *recvtype,
                   int root, plexus_coll_comm_t *comm);
    int (*scatter)(plexus_coll_module_t *self, const void *sendbuf, int sendcount, plexus_coll_dtype_t *sendtype,
                   void *recvbuf, int recvcount, plexus_coll_dtype_t *recvtype, int root, plexus_coll_comm_t *comm);
    int (*scatterv)(plexus_coll_module_t *self, const void *sendbuf, const int sendcounts[], const int displs[],
                    plexus_coll_dtype_t *sendtype, void *recvbuf, int recvcount, plexus_coll_dtype_t *recvtype,
                    int root, plexus_coll_comm_t *comm);
    int (*allgather)(plexus_coll_module_t *self, const void *sendbuf, int sendcount, plexus_coll_dtype_t *sendtype,
                     void *recvbuf, int recvcount, plexus_coll_dtype_t *recvtype, plexus_coll_comm_t *comm);
    int (*allgatherv)(plexus_coll_module_t *self, const void *sendbuf, int sendcount,
                      plexus_coll_dtype_t *sendtype, void *recvbuf, const int recvcounts[], const int displs[],
                      plexus_coll_dtype_t *recvtype, plexus_coll_comm_t *comm);
    int (*alltoall)(plexus_coll_module_t *self, const void *sendbuf, int sendcount, plexus_coll_dtype_t *sendtype,
                    void *recvbuf, int recvcount, plexus_coll_dtype_t *recvtype, plexus_coll_comm_t *comm);
    int (*alltoallv)(plexus_coll_module_t *self, const void *sendbuf, const int sendcounts[], const int sdispls[],
                     plexus_coll_dtype_t *sendtype, void *recvbuf, const int recvcounts[], const int rdispls[],
                     plexus_coll_dtype_t *recvtype, plexus_coll_comm_t *comm);
    /* Displacements in bytes, one datatype per peer (MPI_Alltoallw). */
    int (*alltoallw)(plexus_coll_module_t *self, const void *sendbuf, const int sendcounts[], const int sdispls[],
                     plexus_coll_dtype_t *const sendtypes[], void *recvbuf, const int recvcounts[],
                     const int rdispls[], plexus_coll_dtype_t *const recvtypes[], plexus_coll_comm_t *comm);
    int (*reduce_scatter)(plexus_coll_module_t *self, const void *sendbuf, void *recvbuf, const int recvcounts[],
                          plexus_coll_dtype_t *type, plexus_coll_op_t *op, plexus_coll_comm_t *comm);
    int (*reduce_scatter_block)(plexus_coll_module_t *self, const void *sendbuf, void *recvbuf, int recvcount,
                                plexus_coll_dtype_t *type, plexus_coll_op_t *op, plexus_coll_comm_t *comm);
    int (*scan)(plexus_coll_module_t *self, const void *sendbuf, void *recvbuf, int count, plexus_coll_dtype_t *type,
                plexus_coll_op_t *op, plexus_coll_comm_t *comm);
    int (*exscan)(plexus_coll_module_t *self, const void *sendbuf, void *recvbuf, int count,
                  plexus_coll_dtype_t *type, plexus_coll_op_t *op, plexus_coll_comm_t *comm);
} plexus_coll_functions_t;

/* What query() returns (plexus_query_result_t::module): one module per communicator. The
 * component allocates it (usually inside a larger struct of its own) and frees it in destroy. */
struct plexus_coll_module {
    uint32_t struct_size; /* sizeof(plexus_coll_module_t) as the component was built */
    /* Per function: the priority at which this module serves it (0-100, the bands of
     * component.h), or -1 when it does not serve it (its pointer may then be NULL). */
    int priority[PLEXUS_COLL_FUNCTION_COUNT];
    plexus_coll_functions_t fn;
    /* Called once, when the communicator is released (MPI_Comm_free after pending operations,
     * or MPI_Finalize); no function of the module is called afterwards. */
    void (*destroy)(plexus_coll_module_t *self);
};

/* ------------------------------------------------------------------ services */
/* Layout of a datatype (MPI_Type_size, MPI_Type_get_extent, MPI_Type_get_true_extent). A
 * temporary buffer for count items of it needs true_extent + (count - 1) * extent bytes and
 * starts true_lb bytes before the address given to the services. */
typedef struct plexus_coll_dtype_info {
    uint32_t struct_size; /* set by the caller */
    int contiguous;       /* an item is size contiguous bytes and size == extent */
    size_t size;          /* bytes of data in one item */
    ptrdiff_t lb;
    ptrdiff_t extent;
    ptrdiff_t true_lb;
    ptrdiff_t true_extent;
} plexus_coll_dtype_info_t;

#define PLEXUS_COLL_SERVICES_MAJOR 1
#define PLEXUS_COLL_SERVICES_MINOR 0

/* What the MPI layer offers coll components; valid from query() until MPI_Finalize. */
typedef struct plexus_coll_services {
    uint32_t struct_size;
    uint16_t major;
    uint16_t minor;

    /* The communicator. comm_local: the intra-communicator of an inter-communicator's local group
     * (the same for every call; NULL for an intra-communicator); it has its own coll modules. */
    int (*comm_rank)(plexus_coll_comm_t *comm);
    int (*comm_size)(plexus_coll_comm_t *comm);
    int (*comm_remote_size)(plexus_coll_comm_t *comm); /* 0 for intra-communicators */
    int (*comm_is_inter)(plexus_coll_comm_t *comm);
    plexus_coll_comm_t *(*comm_local)(plexus_coll_comm_t *comm);

    /* Point-to-point on comm in the collective tag space (0 .. PLEXUS_COLL_TAG_MAX); peer is a
     * rank of the remote group on an inter-communicator, as in MPI. A request is completed and
     * released by wait / waitall (which set the handles to NULL). Return MPI error classes. */
    int (*isend)(const void *buf, int count, plexus_coll_dtype_t *type, int peer, int tag,
                 plexus_coll_comm_t *comm, plexus_coll_request_t **request);
    int (*irecv)(void *buf, int count, plexus_coll_dtype_t *type, int peer, int tag, plexus_coll_comm_t *comm,
                 plexus_coll_request_t **request);
    int (*wait)(plexus_coll_request_t **request);
    int (*waitall)(int n, plexus_coll_request_t *requests[]);
    int (*send)(const void *buf, int count, plexus_coll_dtype_t *type, int peer, int tag, plexus_coll_comm_t *comm);
    int (*recv)(void *buf, int count, plexus_coll_dtype_t *type, int peer, int tag, plexus_coll_comm_t *comm);
    int (*sendrecv)(const void *sendbuf, int sendcount, plexus_coll_dtype_t *sendtype, int dest,
                    void *recvbuf, int recvcount, plexus_coll_dtype_t *recvtype, int source, int tag,
                    plexus_coll_comm_t *comm);

    /* Datatypes. byte_type is MPI_BYTE (for raw temporary buffers). copy moves data between two
     * layouts with the same type signature in this process (a local send/receive), or fails
     * with MPI_ERR_TRUNCATE when the receive side is shorter. */
    plexus_coll_dtype_t *byte_type;
    int (*dtype_info)(plexus_coll_dtype_t *type, plexus_coll_dtype_info_t *out);
    int (*copy)(const void *src, int src_count, plexus_coll_dtype_t *src_type, void *dst, int dst_count,
                plexus_coll_dtype_t *dst_type);

    /* Reductions: inout[i] = in[i] op inout[i] for count items of type (MPI_Reduce_local; the
     * order matters for non-commutative operations). */
    int (*op_apply)(plexus_coll_op_t *op, const void *in, void *inout, int count, plexus_coll_dtype_t *type);
    int (*op_commutative)(plexus_coll_op_t *op);

    /* The collectives of any communicator through its own modules (the self argument is
     * ignored: pass NULL): what an inter-communicator algorithm uses for its local phase. */
    const plexus_coll_functions_t *dispatch;

    /* coll_base_verbose-aware tracing, as the host API's log (level PLEXUS_LOG_*). */
    int (*verbosity)(void);
} plexus_coll_services_t;

/* ------------------------------------------------------------------ query scope */
/* query() scope for coll: the communicator a module is asked to serve. Members after preference
 * are 1.1 (check struct_size). plexus_info's dry runs (--select) pass comm and services NULL: the
 * component answers with its priority as usual; such a module is destroyed unused. */
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
    /* 1.1 */
    plexus_coll_comm_t *comm;                 /* the communicator itself */
    const plexus_coll_services_t *services;   /* what the module may call */
} plexus_coll_scope_t;

#ifdef __cplusplus
}
#endif

#endif /* PLEXUS_COLL_H */
