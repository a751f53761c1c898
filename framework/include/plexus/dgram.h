/* The core's datagram facility (host API 1.3, host->dgram): authenticated unicast and multicast
 * datagrams over UDP/IPv4 or InfiniBand UD, for connection set-up and multicast collectives.
 * Plain C. Datagrams are unreliable by design; since 1.1 the reliable_* members layer reliable
 * messages and request/response over an endpoint (acks, retransmission with back-off, duplicate
 * suppression, fragments). docs/datagrams.md has the wire formats and the drop rules. */
#ifndef PLEXUS_DGRAM_H
#define PLEXUS_DGRAM_H

#include <stddef.h>
#include <stdint.h>

#include <plexus/status.h>
#include <plexus/component.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The services table's version: members are only appended; check struct_size before using a
 * member newer than the version a component was built for. */
#define PLEXUS_DGRAM_MAJOR 1
#define PLEXUS_DGRAM_MINOR 1  /* 1.1: reliable messages and request/response (reliable_*) */

/* An address fits in this many bytes: publish it in a business card as it is. */
#define PLEXUS_DGRAM_ADDR_MAX 64
/* open_args.sender: this process's rank in its job (needs the runtime). */
#define PLEXUS_DGRAM_SENDER_RANK UINT32_MAX
/* Shortest key accepted in open_args.key. */
#define PLEXUS_DGRAM_KEY_MIN 16

typedef enum plexus_dgram_transport {
    PLEXUS_DGRAM_ANY = 0,   /* InfiniBand UD where an HCA is usable, else UDP */
    PLEXUS_DGRAM_UDP = 1,   /* UDP over IPv4 on the interface named */
    PLEXUS_DGRAM_IB_UD = 2  /* InfiniBand Unreliable Datagram through rdma-core */
} plexus_dgram_transport_t;

/* Why a datagram was dropped; stats.dropped[] is indexed by these. */
typedef enum plexus_dgram_drop {
    PLEXUS_DGRAM_DROP_MALFORMED = 0,     /* too short, bad magic or version, lengths out of range */
    PLEXUS_DGRAM_DROP_FOREIGN,           /* another job's or another label's (key id differs) */
    PLEXUS_DGRAM_DROP_AUTH,              /* the tag does not verify: tampered or forged */
    PLEXUS_DGRAM_DROP_STALE,             /* epoch older than this endpoint's or the sender's latest */
    PLEXUS_DGRAM_DROP_DUPLICATE,         /* sequence seen before (replay) or older than the window */
    PLEXUS_DGRAM_DROP_SELF,              /* this endpoint's own multicast, looped back */
    PLEXUS_DGRAM_DROP_INJECTED,          /* runtime_dgram_drop_rate (tests) */
    PLEXUS_DGRAM_DROP_REASSEMBLY_TIMEOUT,/* fragments of a message that did not complete in time */
    PLEXUS_DGRAM_DROP_REASSEMBLY_MEMORY, /* no room for another partial message */
    PLEXUS_DGRAM_DROP_KERNEL,            /* lost in the socket's receive buffer (kernel count) */
    PLEXUS_DGRAM_DROP_COUNT
} plexus_dgram_drop_t;

typedef struct plexus_dgram_endpoint plexus_dgram_endpoint_t; /* opaque */

typedef struct plexus_dgram_open_args {
    uint32_t struct_size;  /* sizeof(plexus_dgram_open_args_t) as the caller was built */
    uint32_t transport;    /* plexus_dgram_transport_t */
    /* UDP: an interface name ("lo", "eth0") or one of its IPv4 addresses; InfiniBand: a device,
     * optionally with its port ("mlx5_0:1"). NULL: the parameter runtime_dgram_if. */
    const char *interface;
    /* The authentication key every peer uses: NULL is the job secret (needs the runtime); else
     * key_len >= PLEXUS_DGRAM_KEY_MIN bytes, e.g. a secret two jobs share through a port name. */
    const uint8_t *key;
    size_t key_len;
    /* Separates users of one key: endpoints whose labels differ drop each other's datagrams as
     * foreign. Use the component's full name ("dpm_ud"). NULL is "". */
    const char *label;
    uint32_t sender;  /* carried in every datagram; PLEXUS_DGRAM_SENDER_RANK: this rank */
    uint32_t epoch;   /* sent in every datagram; anything older received is stale */
    uint16_t port;    /* UDP: the port to bind, 0 for any free one; ignored by IB UD */
    uint16_t reserved;
} plexus_dgram_open_args_t;

/* About a message received. */
typedef struct plexus_dgram_recv_info {
    uint32_t struct_size;  /* set by the caller */
    uint32_t sender;       /* the sender's open_args.sender */
    uint32_t epoch;
    uint32_t multicast;    /* 1: it came through a joined group */
    size_t len;            /* the message's length, also when the buffer was too small */
    size_t from_len;
    uint8_t from[PLEXUS_DGRAM_ADDR_MAX]; /* the sending endpoint's address: answer it there */
} plexus_dgram_recv_info_t;

typedef struct plexus_dgram_limits {
    uint32_t struct_size;
    uint32_t header;   /* bytes of header (and tag) in every datagram */
    size_t mtu;        /* the longest message that travels as one datagram */
    size_t max_message;/* the longest message send accepts (fragmented above mtu) */
    size_t link_mtu;   /* the link's own MTU (interface or IB path MTU) */
} plexus_dgram_limits_t;

typedef struct plexus_dgram_stats {
    uint32_t struct_size;
    uint32_t reserved;
    uint64_t sent_messages;
    uint64_t sent_datagrams;
    uint64_t sent_bytes;          /* message bytes, headers not counted */
    uint64_t received_messages;   /* complete messages delivered */
    uint64_t received_datagrams;  /* datagrams that verified and were accepted */
    uint64_t received_bytes;
    uint64_t dropped[PLEXUS_DGRAM_DROP_COUNT]; /* datagrams, by plexus_dgram_drop_t */
} plexus_dgram_stats_t;

typedef struct plexus_dgram_iov {
    const void *base;
    size_t len;
} plexus_dgram_iov_t;

/* A received message for set_handler's function: data is valid only during the call. */
typedef void (*plexus_dgram_handler_fn_t)(void *ctx, const void *data, size_t len,
                                          const plexus_dgram_recv_info_t *info);

/* ---- 1.1: reliable messages over an endpoint (docs/datagrams.md, "Reliable messages") ---- */

typedef struct plexus_dgram_reliable plexus_dgram_reliable_t; /* opaque */
typedef struct plexus_dgram_op plexus_dgram_op_t;             /* opaque: one message in flight */

/* Who sent a reliable message, by value: copy it to answer later with reliable_respond. */
typedef struct plexus_dgram_peer {
    uint32_t sender;       /* the sender's open_args.sender */
    uint32_t addr_len;
    uint64_t incarnation;  /* random per reliable layer opened: tells a restarted peer apart */
    uint64_t request;      /* nonzero: a request, whose sender waits for reliable_respond */
    uint8_t addr[PLEXUS_DGRAM_ADDR_MAX]; /* the sending endpoint's address */
} plexus_dgram_peer_t;

/* A whole message, delivered once however often it was retransmitted; data is valid only during
 * the call. The handler may send and respond; it must not wait, progress or close the layer. */
typedef void (*plexus_dgram_message_fn_t)(void *ctx, const void *data, size_t len,
                                          const plexus_dgram_peer_t *from);

typedef struct plexus_dgram_reliable_args {
    uint32_t struct_size;
    int32_t timeout_ms;  /* the longest an operation may take; <= 0: runtime_dgram_timeout_ms */
    int32_t rto_ms;      /* the first retransmission timeout; <= 0: runtime_dgram_rto_ms */
    int32_t rto_max_ms;  /* the back-off's cap; <= 0: runtime_dgram_rto_max_ms */
    plexus_dgram_message_fn_t handler; /* messages and requests that arrive (NULL: acked, dropped) */
    void *ctx;
} plexus_dgram_reliable_args_t;

typedef struct plexus_dgram_reliable_stats {
    uint32_t struct_size;
    uint32_t reserved;
    uint64_t sent;           /* messages accepted for sending (one-way, requests, responses) */
    uint64_t completed;      /* of those, acknowledged (and, for requests, answered) */
    uint64_t timeouts;       /* of those, failed for want of an answer in time */
    uint64_t fragments;      /* first transmissions of fragments */
    uint64_t retransmitted;  /* fragments sent again (timer or a later fragment's ack) */
    uint64_t acks_sent;
    uint64_t acks_received;
    uint64_t delivered;      /* whole messages handed to the handler (or to a waiting request) */
    uint64_t duplicates;     /* fragments dropped because they were already had */
    uint64_t malformed;      /* authenticated datagrams that are not of this protocol */
    uint64_t unmatched;      /* responses and acks for nothing in flight (late, or timed out) */
    uint64_t refused;        /* fragments dropped for want of memory (the sender retransmits) */
    uint64_t rtt_samples;    /* round trips measured (acks of fragments sent once) */
    uint64_t rtt_sum_us;     /* their sum: the mean round trip is rtt_sum_us / rtt_samples */
} plexus_dgram_reliable_stats_t;

/* An endpoint is used by one thread at a time; different endpoints are independent. Every call
 * returns PLEXUS_SUCCESS or a PLEXUS_ERR_* code; last_error then says what was wrong. */
struct plexus_dgram_services {
    uint32_t struct_size;
    uint16_t major;
    uint16_t minor;

    /* Opens an endpoint. PLEXUS_ERR_NOT_AVAILABLE + why: the transport cannot run here (no HCA,
     * no such interface: why names the valid ones); PLEXUS_ERR_BAD_PARAM + why: bad arguments. */
    int (*open)(const plexus_dgram_open_args_t *args, plexus_dgram_endpoint_t **out,
                plexus_reason_t *why);
    int (*close)(plexus_dgram_endpoint_t *ep);

    /* The endpoint's address, to publish (modex card, a port name): *len in: room, out: bytes. */
    int (*address)(plexus_dgram_endpoint_t *ep, void *buf, size_t *len);
    int (*limits)(plexus_dgram_endpoint_t *ep, plexus_dgram_limits_t *out);

    /* Sends a message to an address: a peer's or a group's (group_address). Above limits.mtu it
     * is fragmented and reassembled by the receiver. PLEXUS_ERR_AGAIN: the send queue stayed full.
     */
    int (*send)(plexus_dgram_endpoint_t *ep, const void *addr, size_t addr_len, const void *data,
                size_t len);
    int (*sendv)(plexus_dgram_endpoint_t *ep, const void *addr, size_t addr_len,
                 const plexus_dgram_iov_t *iov, size_t iov_count);

    /* The group address every endpoint with the same key and label derives from name (e.g. a
     * communicator's random id), so that members need not exchange it. */
    int (*group_address)(plexus_dgram_endpoint_t *ep, const void *name, size_t name_len,
                         void *addr, size_t *addr_len);
    int (*join)(plexus_dgram_endpoint_t *ep, const void *group, size_t group_len);
    int (*leave)(plexus_dgram_endpoint_t *ep, const void *group, size_t group_len);

    /* The next message. timeout_ms 0: poll, PLEXUS_ERR_AGAIN when none; > 0: wait, then
     * PLEXUS_ERR_TIMEOUT. A message longer than cap: PLEXUS_ERR_OUT_OF_RESOURCE, info->len says
     * how long, and it stays for the next call. */
    int (*recv)(plexus_dgram_endpoint_t *ep, void *buf, size_t cap, plexus_dgram_recv_info_t *info,
                int timeout_ms);
    /* Progress-friendly receiving: with a handler set, progress(ep) reads what has arrived and
     * hands each message to it, returning how many; it has the signature of a progress callback,
     * so host->progress_register(dgram->progress, ep) drives it. fn NULL removes the handler. */
    int (*set_handler)(plexus_dgram_endpoint_t *ep, plexus_dgram_handler_fn_t fn, void *ctx);
    int (*progress)(void *ep);
    /* A descriptor that polls readable when datagrams may have arrived (for poll/epoll). */
    int (*wait_fd)(plexus_dgram_endpoint_t *ep, int *fd);

    /* Raises the epoch this endpoint sends and the oldest it accepts (never lowers it). */
    int (*set_epoch)(plexus_dgram_endpoint_t *ep, uint32_t epoch);
    int (*stats)(plexus_dgram_endpoint_t *ep, plexus_dgram_stats_t *out);
    /* "malformed", "foreign", ...; NULL for a value out of range. */
    const char *(*drop_reason_name)(int reason);
    /* What the endpoint's last failed call found wrong ("" when none). */
    const char *(*last_error)(plexus_dgram_endpoint_t *ep);

    /* ---- Added in 1.1: check struct_size covers a member before use. ---- */

    /* Reliable messages over ep (which it takes over: its handler, its progress). Messages are
     * cut into datagrams of limits.mtu, each acknowledged (selectively) and retransmitted after
     * a timeout that doubles while the peer stays silent, until acked or the operation's
     * timeout; fragments and messages seen before are dropped. Close before the endpoint. */
    int (*reliable_open)(plexus_dgram_endpoint_t *ep, const plexus_dgram_reliable_args_t *args,
                         plexus_dgram_reliable_t **out, plexus_reason_t *why);
    int (*reliable_close)(plexus_dgram_reliable_t *rel);
    /* A one-way message (completes when acknowledged) or a request (completes with the
     * response). *op (NULL: fire and forget, failures only counted) until op_free; timeout_ms
     * <= 0: the layer's. The data are copied. */
    int (*reliable_send)(plexus_dgram_reliable_t *rel, const void *addr, size_t addr_len,
                         const plexus_dgram_iov_t *iov, size_t iov_count, int timeout_ms,
                         plexus_dgram_op_t **op);
    int (*reliable_request)(plexus_dgram_reliable_t *rel, const void *addr, size_t addr_len,
                            const plexus_dgram_iov_t *iov, size_t iov_count, int timeout_ms,
                            plexus_dgram_op_t **op);
    /* Answers the request from->request (from as the handler got it, copied); op as above. */
    int (*reliable_respond)(plexus_dgram_reliable_t *rel, const plexus_dgram_peer_t *from,
                            const plexus_dgram_iov_t *iov, size_t iov_count,
                            plexus_dgram_op_t **op);
    /* Reads, delivers, acknowledges, retransmits and times out: a progress callback
     * (host->progress_register(dgram->reliable_progress, rel)); returns the events. */
    int (*reliable_progress)(void *rel);
    /* Runs reliable_progress (and nothing else) until op completes or timeout_ms passes
     * (PLEXUS_ERR_TIMEOUT); for callers outside the progress engine. */
    int (*reliable_wait)(plexus_dgram_reliable_t *rel, plexus_dgram_op_t *op, int timeout_ms);
    int (*reliable_stats)(plexus_dgram_reliable_t *rel, plexus_dgram_reliable_stats_t *out);
    /* What the layer's last failed call found wrong ("" when none). */
    const char *(*reliable_last_error)(plexus_dgram_reliable_t *rel);
    /* PLEXUS_ERR_AGAIN while in flight, PLEXUS_SUCCESS, or the failure (PLEXUS_ERR_TIMEOUT:
     * op_error names the peer and what was missing). */
    int (*op_status)(const plexus_dgram_op_t *op);
    /* A completed request's response: valid until op_free. */
    int (*op_response)(const plexus_dgram_op_t *op, const void **data, size_t *len);
    const char *(*op_error)(const plexus_dgram_op_t *op);
    /* Forgets op; one still in flight is abandoned (no more retransmissions). */
    int (*op_free)(plexus_dgram_op_t *op);
};

#ifdef __cplusplus
}
#endif

#endif /* PLEXUS_DGRAM_H */
