/* BTL (byte transfer layer) framework interface: how bytes move between two processes.
 * Multi-select: every usable BTL is kept and ranked per peer by the BML (exclusivity, then
 * latency). A BTL knows nothing of MPI: it moves tagged active messages, reads and writes memory
 * its peers exposed, and (where it has them) keeps per-peer fast channels.
 *
 * Threading: every entry point is called from one thread at a time (the MPI layer is FUNNELED);
 * receive and completion callbacks run inside the BTL's progress callback, on that thread. */
#ifndef PLEXUS_BTL_H
#define PLEXUS_BTL_H

#include <plexus/component.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Interface version a btl component declares in its descriptor (framework_major/minor); a
 * component built for minor m loads into any core whose minor is >= m.
 * 1.0: descriptor only. 1.1: the data path (this module struct). 1.2: send_pack, a send whose
 * payload the upper layer packs straight into the transport's own buffer. 1.3: rdma_limit, the
 * size above which fragments are faster again than get/put. 1.4: pending_to, what one peer's
 * sends still wait for inside this process. 1.5: holds_proc, whether a deleted peer's id may still
 * come up with a message (the core gives ids of departed processes to new ones only then). */
#define PLEXUS_BTL_MAJOR 1
#define PLEXUS_BTL_MINOR 5

/* query() scope for btl: NULL (a BTL serves the whole process). The module it returns stays
 * valid until the component is closed. */

/* Active-message tags: one byte, split by owner so that layers never collide. A BTL delivers each
 * message to the callback registered for its tag. */
#define PLEXUS_BTL_TAG_PML_FIRST 0x00u       /* point-to-point matching and rendezvous */
#define PLEXUS_BTL_TAG_PML_LAST 0x3fu
#define PLEXUS_BTL_TAG_OSC_FIRST 0x40u       /* one-sided control and data */
#define PLEXUS_BTL_TAG_OSC_LAST 0x7fu
#define PLEXUS_BTL_TAG_COLL_FIRST 0x80u      /* collectives that bypass the PML */
#define PLEXUS_BTL_TAG_COLL_LAST 0xbfu
#define PLEXUS_BTL_TAG_INTERNAL_FIRST 0xc0u  /* a BTL's own control messages (reconf, setup) */
#define PLEXUS_BTL_TAG_INTERNAL_LAST 0xffu
#define PLEXUS_BTL_TAG_COUNT 256u

/* A peer as the upper layer names it. id is the upper layer's own index for the process: the
 * BTL hands it back with every message from that process. */
typedef struct plexus_btl_proc {
    uint32_t id;
    uint32_t rank;       /* in nspace */
    const char *nspace;  /* NUL-terminated; the caller's string, valid during add_procs only */
} plexus_btl_proc_t;

/* A BTL's state for one peer; opaque to everybody else. */
typedef struct plexus_btl_endpoint plexus_btl_endpoint_t;

/* One received active message: the header and payload the sender gathered, contiguous. The
 * bytes are valid only until the callback returns (they may live in a shared ring): a receiver
 * that lays the payload out elsewhere (a derived datatype) unpacks it from here in place, one
 * message at a time, rather than copying the message out first. */
typedef struct plexus_btl_recv_desc {
    uint32_t src;      /* plexus_btl_proc_t.id of the sender */
    uint8_t tag;
    uint8_t reserved[3];
    const void *data;
    size_t len;
} plexus_btl_recv_desc_t;

typedef void (*plexus_btl_recv_fn_t)(void *ctx, const plexus_btl_recv_desc_t *msg);

/* 1.2: writes bytes [offset, offset + len) of the caller's payload stream into dst (len bytes,
 * no alignment promised). The stream is whatever the caller describes by ctx (the PML: the
 * packed form of a derived datatype). A pack function keeps no state between calls: the BTL may
 * call it for a send that then returns PLEXUS_ERR_AGAIN, and again when that send is retried. */
typedef void (*plexus_btl_pack_fn_t)(void *ctx, size_t offset, size_t len, void *dst);

/* What a peer needs to reach a registered region of this process's memory: the BTL's own bytes
 * (for sm: pid, base, length). The upper layer ships it inside its messages, opaque. */
#define PLEXUS_BTL_MEM_HANDLE_MAX 48
typedef struct plexus_btl_mem_handle {
    uint32_t len;  /* bytes of data used */
    uint32_t reserved;
    uint8_t data[PLEXUS_BTL_MEM_HANDLE_MAX];
} plexus_btl_mem_handle_t;

/* Local completion of put/get: the local buffer may be reused (put) or holds the data (get).
 * status is PLEXUS_SUCCESS or the error that ended the transfer. */
typedef void (*plexus_btl_rdma_done_fn_t)(void *ctx, int status);

/* Fast channels: a per-peer path that is quicker than the default one but costs memory or
 * hardware resources, so only some peers get one (sm: fast boxes; openib: eager RDMA). The channel
 * is the one this process SENDS on to the peer. Reconf decides which peers deserve one. */
typedef enum plexus_btl_fast_op {
    PLEXUS_BTL_FAST_CREATE = 1,   /* ask for one (asynchronous: PENDING until the peer grants) */
    PLEXUS_BTL_FAST_QUIESCE = 2,  /* stop sending on it; it stays allocated */
    PLEXUS_BTL_FAST_RESUME = 3,   /* use a quiesced one again */
    PLEXUS_BTL_FAST_DROP = 4      /* quiesce, drain, and give its memory back to the peer */
} plexus_btl_fast_op_t;

typedef enum plexus_btl_fast_state {
    PLEXUS_BTL_FAST_NONE = 0,
    PLEXUS_BTL_FAST_PENDING = 1,
    PLEXUS_BTL_FAST_ACTIVE = 2,
    PLEXUS_BTL_FAST_QUIESCED = 3
} plexus_btl_fast_state_t;

typedef struct plexus_btl_fast_stats {
    uint32_t active;     /* outgoing channels in use */
    uint32_t quiesced;   /* outgoing channels allocated but not used */
    uint32_t incoming;   /* channels peers hold into this process */
    uint32_t capacity;   /* most incoming channels this process grants */
    uint64_t fast_sends; /* messages sent on fast channels since open */
    uint64_t slow_sends; /* messages sent on the default path since open */
} plexus_btl_fast_stats_t;

/* What a module can do (flags). */
#define PLEXUS_BTL_CAP_SEND 0x1u
#define PLEXUS_BTL_CAP_PUT 0x2u
#define PLEXUS_BTL_CAP_GET 0x4u
#define PLEXUS_BTL_CAP_FAST_CHANNELS 0x8u

/* Exclusivity bands: for a peer, the reachable BTL of highest exclusivity is used first. */
#define PLEXUS_BTL_EXCLUSIVITY_SELF 0xffffu  /* the same process */
#define PLEXUS_BTL_EXCLUSIVITY_NODE 0x8000u  /* the same node (sm) */
#define PLEXUS_BTL_EXCLUSIVITY_HIGH 0x4000u  /* a fabric with RDMA (openib, sci) */
#define PLEXUS_BTL_EXCLUSIVITY_LOW 0x0100u   /* anything (tcp) */

typedef struct plexus_btl_module plexus_btl_module_t;

struct plexus_btl_module {
    uint32_t struct_size;  /* sizeof(plexus_btl_module_t) as the component was built */
    uint16_t major;        /* PLEXUS_BTL_MAJOR / MINOR the component was built against */
    uint16_t minor;
    const char *name;  /* the component's name */

    uint32_t caps;         /* PLEXUS_BTL_CAP_* */
    uint32_t exclusivity;  /* PLEXUS_BTL_EXCLUSIVITY_* band or a value between */
    uint32_t latency_ns;   /* estimate for ranking equal exclusivities */
    uint32_t bandwidth_mbps;
    size_t eager_limit;    /* largest header + payload the PML sends in one message unasked */
    size_t max_send_size;  /* largest header + payload of any one send (rendezvous fragments) */
    size_t rdma_threshold; /* payloads from this size on go by get/put; 0: never */
    size_t max_rdma_size;  /* largest single put/get; 0: unlimited */

    /* Peers, at any time and as often as the job changes: eps[i] is set for each proc this
     * module reaches and NULL for the others. Cheap: a connection is made on first use. Adding a
     * proc twice returns the same endpoint. */
    int (*add_procs)(plexus_btl_module_t *m, size_t n, const plexus_btl_proc_t *procs,
                     plexus_btl_endpoint_t **eps);
    /* The peers are gone (finalize, disconnect): release what the module holds for them.
     * Endpoint lifetime: from del_procs on, eps[i] belongs to the module alone, which frees it
     * when it no longer needs it (at once, or once what the peer may still send is drained: btl_sm
     * keeps it until the peer's process has ended, btl_tcp until its connection is closed). The
     * caller keeps no copy of the pointer past this call: the BML clears its paths, the PML its
     * peer entry, and the core calls del_procs only for processes no live communicator (nor a
     * window's or a collective module's, which hold a communicator) reaches, so osc and coll
     * modules, which get endpoints through them, hold none either. A proc added again gets an
     * endpoint from add_procs, the same one or a new one. */
    int (*del_procs)(plexus_btl_module_t *m, size_t n, plexus_btl_endpoint_t *const *eps);

    /* The callback for one tag (NULL removes it). A message whose tag has no callback is
     * dropped with a warning. */
    int (*register_recv)(plexus_btl_module_t *m, uint8_t tag, plexus_btl_recv_fn_t fn, void *ctx);

    /* Sends hdr followed by payload as one message (hdr_len + payload_len <= max_send_size).
     * PLEXUS_SUCCESS: both buffers may be reused at once. PLEXUS_ERR_AGAIN: out of resources
     * now, nothing was sent; try again after progress. Messages from one process to another on
     * one module arrive in the order sent, except that a fast channel may overtake the default
     * path: the upper layer orders by its own sequence numbers. */
    int (*send)(plexus_btl_module_t *m, plexus_btl_endpoint_t *ep, uint8_t tag, const void *hdr,
                size_t hdr_len, const void *payload, size_t payload_len);

    /* Memory peers may read or write with put/get (CAP_PUT/CAP_GET). */
    int (*register_mem)(plexus_btl_module_t *m, void *base, size_t len,
                        plexus_btl_mem_handle_t *out);
    int (*deregister_mem)(plexus_btl_module_t *m, plexus_btl_mem_handle_t *handle);
    /* Reads len bytes at remote_addr (inside the peer's registered region remote) into local.
     * PLEXUS_SUCCESS: done(ctx, status) will be called once, possibly before get returns.
     * PLEXUS_ERR_AGAIN: not started; retry. Other errors: not started, done is not called. */
    int (*get)(plexus_btl_module_t *m, plexus_btl_endpoint_t *ep, void *local, size_t len,
               const plexus_btl_mem_handle_t *remote, uint64_t remote_addr,
               plexus_btl_rdma_done_fn_t done, void *ctx);
    int (*put)(plexus_btl_module_t *m, plexus_btl_endpoint_t *ep, const void *local, size_t len,
               const plexus_btl_mem_handle_t *remote, uint64_t remote_addr,
               plexus_btl_rdma_done_fn_t done, void *ctx);

    /* Fast channels (CAP_FAST_CHANNELS; NULL otherwise). fast_channel returns
     * PLEXUS_ERR_NOT_AVAILABLE when the peer has no room for one more. */
    int (*fast_channel)(plexus_btl_module_t *m, plexus_btl_endpoint_t *ep, plexus_btl_fast_op_t op);
    plexus_btl_fast_state_t (*fast_channel_state)(plexus_btl_module_t *m, plexus_btl_endpoint_t *ep);
    int (*fast_channel_stats)(plexus_btl_module_t *m, plexus_btl_fast_stats_t *out);

    /* Messages this process accepted in send/put/get but has not yet pushed out of itself (a
     * busy socket, a full send queue): what would be lost if it exited now. Not what peers have
     * yet to consume: a peer that never receives a message must not keep this process from
     * finalizing. The MPI layer drains every module to 0 before the final fence. */
    size_t (*pending)(plexus_btl_module_t *m);

    /* ---- 1.2 (members are only ever appended: a 1.1 module ends above; see
     * PLEXUS_BTL_HAS_SEND_PACK) ---- */

    /* Sends hdr followed by payload_len bytes of the caller's stream, from position offset on,
     * which pack(pack_ctx, ...) writes straight into the buffer the message travels in (a shared
     * fragment, a fast-box record, a socket buffer): a non-contiguous payload is never gathered
     * into a whole-message buffer first. pack is called before send_pack returns, for the whole
     * range at once or in pieces in stream order, and never after. Otherwise exactly send: the
     * same limit (hdr_len + payload_len <= max_send_size), results, ordering and delivery (the
     * receiver gets one contiguous message, as from send). NULL: not offered; the upper layer
     * packs into a buffer of its own and calls send. */
    int (*send_pack)(plexus_btl_module_t *m, plexus_btl_endpoint_t *ep, uint8_t tag, const void *hdr,
                     size_t hdr_len, plexus_btl_pack_fn_t pack, void *pack_ctx, size_t offset,
                     size_t payload_len);

    /* ---- 1.3 (see PLEXUS_BTL_RDMA_LIMIT) ---- */

    /* Payloads larger than this go by sends again although they are above rdma_threshold: where
     * both processes copying fragments at once beats one process copying alone (shared memory,
     * from a few MiB on), get/put pays only in a window of sizes. 0: no limit. The module may
     * change it (and rdma_threshold) at any time; the upper layer reads both per message. */
    size_t rdma_limit;

    /* ---- 1.4 (see PLEXUS_BTL_HAS_PENDING_TO) ---- */

    /* Messages to this peer that send/send_pack accepted but that have not yet left this process
     * (queued while the connection to it is made, or behind a full socket). The upper layer
     * completes a send only once it returns 0 for the peer, so that a message whose sender makes
     * no further MPI call still reaches its receiver: MPI_Send returns, and MPI_Wait completes an
     * MPI_Isend, once the bytes are out (as MPICH and Open MPI over TCP do), while the send call
     * itself never waits for the peer. Called from the upper layer's progress, cheap. NULL: a
     * message is out of this process when send returns (shared memory, an HCA's send queue). */
    size_t (*pending_to)(plexus_btl_module_t *m, plexus_btl_endpoint_t *ep);

    /* ---- 1.5 (see PLEXUS_BTL_HAS_HOLDS_PROC) ---- */

    /* Non-zero while this module may still hand `id` to the upper layer (a message's src, a
     * callback) for a process it was given under that id and has since deleted (del_procs): a
     * deleted endpoint whose late messages it still delivers. 0 once it never will, and for ids
     * it never knew. The core gives the id of a process that left (MPI_Comm_disconnect) to a
     * new process only when every module says 0, so that a message of the old process is never
     * taken for one of the new; a module without it (older than 1.5, or NULL) keeps every id
     * from being given again, and the core's tables then grow by one entry per process ever
     * met. Called from the upper layer's thread, rarely (when processes of another job arrive). */
    int (*holds_proc)(plexus_btl_module_t *m, uint32_t id);
};

/* Whether module m (of any 1.x minor) offers send_pack: a 1.1 module's struct ends before it. */
#define PLEXUS_BTL_HAS_SEND_PACK(m)                                                              \
    ((m)->minor >= 2 &&                                                                          \
     (m)->struct_size >= offsetof(plexus_btl_module_t, send_pack) + sizeof(void (*)(void)) &&   \
     (m)->send_pack != NULL)

/* Module m's rdma_limit (0, no limit, for a module older than 1.3). */
#define PLEXUS_BTL_RDMA_LIMIT(m)                                                                   \
    (((m)->minor >= 3 && (m)->struct_size >= offsetof(plexus_btl_module_t, rdma_limit) + sizeof(size_t)) \
         ? (m)->rdma_limit                                                                       \
         : (size_t)0)

/* Whether module m (of any 1.x minor) may hold accepted messages for a peer: a module older than
 * 1.4 never does (its struct ends before pending_to). */
#define PLEXUS_BTL_HAS_PENDING_TO(m)                                                               \
    ((m)->minor >= 4 &&                                                                            \
     (m)->struct_size >= offsetof(plexus_btl_module_t, pending_to) + sizeof(void (*)(void)) &&    \
     (m)->pending_to != NULL)

/* Whether module m (of any 1.x minor) says when it no longer holds a deleted peer's id: a
 * module older than 1.5 does not (its struct ends before holds_proc). */
#define PLEXUS_BTL_HAS_HOLDS_PROC(m)                                                               \
    ((m)->minor >= 5 &&                                                                            \
     (m)->struct_size >= offsetof(plexus_btl_module_t, holds_proc) + sizeof(void (*)(void)) &&    \
     (m)->holds_proc != NULL)

/* Whether a payload of `bytes` goes by get/put on module m by m's own measure. */
#define PLEXUS_BTL_RDMA_PAYS(m, bytes)                                                            \
    ((m)->rdma_threshold > 0 && (bytes) >= (m)->rdma_threshold &&                                \
     (PLEXUS_BTL_RDMA_LIMIT(m) == 0 || (bytes) <= PLEXUS_BTL_RDMA_LIMIT(m)))

#ifdef __cplusplus
}
#endif

#endif /* PLEXUS_BTL_H */
