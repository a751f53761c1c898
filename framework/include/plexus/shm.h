/* The core's shared-memory services (host API 1.3, host->shm): job-private segments that the
 * processes of a node map, and single copy between their memories. Plain C, versioned like the
 * host API: members are only appended; check struct_size or minor before using a newer one.
 *
 * A segment is created by one process and attached by its local peers from a descriptor
 * (plexus_shm_desc_t) the creator puts in its business card. Wherever peers may take a duplicate
 * of the creator's file descriptor (pidfd_getfd: Linux 5.6+, Yama ptrace_scope <= 1) a segment
 * is anonymous (memfd) and never has a name; otherwise it is a POSIX object
 * "/<job shm prefix><label>-<16 random hex digits>", created 0600, whose name the last expected
 * peer to attach removes (or the creator, once it sees all of them attached): no crash at any
 * point leaves an anonymous segment behind, and a named one only until its peers are in.
 *
 * Every call is setup-time: the data path works on the mapped bytes (plexus/sdk/shm_fifo.hpp,
 * plexus/sdk/rel_ptr.hpp). Errors are PLEXUS_ERR_* with a reason in words when why is given. */
#ifndef PLEXUS_SHM_H
#define PLEXUS_SHM_H

#include <stddef.h>
#include <stdint.h>

#include <plexus/component.h>

#ifdef __cplusplus
extern "C" {
#endif

#define PLEXUS_SHM_MAJOR 1
#define PLEXUS_SHM_MINOR 1 /* 1.1: peer_map, peer_unmap */

/* A segment this process created or attached; opaque. */
typedef struct plexus_shm_segment plexus_shm_segment_t;

#define PLEXUS_SHM_DESC_MAGIC 0x44534c50u /* "PLSD" */
#define PLEXUS_SHM_DESC_VERSION 1
#define PLEXUS_SHM_NAME_MAX 80
#define PLEXUS_SHM_LABEL_MAX 16
#define PLEXUS_SHM_DESC_ANONYMOUS 0x1 /* no name: peers borrow owner_fd */

/* What a peer needs to attach a segment, filled by segment_describe (112 bytes, plain data: it
 * travels in business cards and in shared memory). Attach checks every field against the
 * segment it leads to and refuses a descriptor that does not match. tag is unique per segment. */
typedef struct plexus_shm_desc {
    uint32_t magic;   /* PLEXUS_SHM_DESC_MAGIC */
    uint16_t version; /* PLEXUS_SHM_DESC_VERSION */
    uint16_t flags;   /* PLEXUS_SHM_DESC_* */
    int32_t owner_pid;
    int32_t owner_fd; /* the owner's descriptor, for pidfd_getfd */
    uint64_t size;    /* usable bytes */
    uint64_t tag;     /* random, the name's suffix; also in the segment's header */
    char name[PLEXUS_SHM_NAME_MAX]; /* NUL-terminated */
} plexus_shm_desc_t;

#define PLEXUS_SHM_CREATE_NAMED 0x1 /* a name even where peers could borrow the descriptor */

typedef struct plexus_shm_create_args {
    uint32_t struct_size;    /* sizeof(plexus_shm_create_args_t) as the caller was built */
    uint32_t flags;          /* PLEXUS_SHM_CREATE_* */
    uint64_t size;           /* usable bytes, > 0 (rounded up to whole pages) */
    uint32_t expected_peers; /* local processes that will attach: the last of them unlinks a name */
    uint32_t reserved0;
    const char *label;       /* [a-z0-9_]{1,16}: what the segment is for ("sm", "osc") */
} plexus_shm_create_args_t;

typedef struct plexus_shm_segment_info {
    uint32_t struct_size; /* set by the caller */
    int32_t owner_pid;
    void *base;           /* the usable bytes (page-aligned) */
    uint64_t size;
    int32_t owned;        /* 1: created by this process */
    int32_t anonymous;    /* 1: memfd, never a name */
    int32_t named;        /* 1: a name in /dev/shm right now (this process's view) */
    uint32_t attached;    /* peers that attached so far */
    uint32_t expected_peers;
    uint32_t reserved0;
    char name[PLEXUS_SHM_NAME_MAX];
} plexus_shm_segment_info_t;

/* Part of a file another process of the node holds open (1.1), mapped here; opaque. */
typedef struct plexus_shm_peer_map plexus_shm_peer_map_t;

/* Local bytes, and bytes in the other process (its addresses, never dereferenced here). */
typedef struct plexus_shm_iovec {
    void *base;
    size_t len;
} plexus_shm_iovec_t;

typedef struct plexus_shm_remote_iovec {
    uint64_t addr;
    uint64_t len;
} plexus_shm_remote_iovec_t;

struct plexus_shm_services {
    uint32_t struct_size;
    uint16_t major; /* PLEXUS_SHM_MAJOR */
    uint16_t minor;

    /* 1 when segments created here are anonymous (peers can borrow descriptors), 0 and *why
     * when they get a name. */
    int (*fd_passing_available)(plexus_reason_t *why);

    /* Creates a segment of args->size zeroed bytes, mapped, named from the job's shm prefix
     * (needs the runtime: PLEXUS_ERR_NOT_AVAILABLE before it started). */
    int (*segment_create)(const plexus_shm_create_args_t *args, plexus_shm_segment_t **out,
                          plexus_reason_t *why);
    /* Maps a peer's segment: by name, else through the owner's descriptor. BAD_PARAM for a
     * descriptor that is malformed or does not match the segment it names; UNREACH when the
     * segment cannot be opened (gone, or its owner's descriptor cannot be borrowed). */
    int (*segment_attach)(const plexus_shm_desc_t *desc, plexus_shm_segment_t **out, plexus_reason_t *why);
    /* The descriptor of a segment (owned or attached) for a peer. */
    int (*segment_describe)(const plexus_shm_segment_t *seg, plexus_shm_desc_t *out);
    /* out->struct_size must be set by the caller. */
    int (*segment_info)(const plexus_shm_segment_t *seg, plexus_shm_segment_info_t *out);
    /* Removes the name of an owned segment: at once, or (if_all_attached) only once every
     * expected peer attached. 1: no name is left, 0: it keeps its name. The mapping stays. */
    int (*segment_unlink)(plexus_shm_segment_t *seg, int if_all_attached);
    /* Unmaps and frees the handle (an owned segment's name goes too). */
    int (*segment_detach)(plexus_shm_segment_t *seg);

    /* Whether the kernel lets this process use single copy at all (it reads its own memory);
     * 1, or 0 and *why. */
    int (*single_copy_available)(plexus_reason_t *why);
    /* Whether this process may read the 8-byte word at addr of process pid and finds expect
     * there (a peer publishes both in its card): PLEXUS_SUCCESS, or the error and *why (for
     * EPERM with the usual fix). */
    int (*single_copy_probe)(int32_t pid, uint64_t addr, uint64_t expect, plexus_reason_t *why);
    /* Moves bytes between this process (local) and process pid (remote) in one pass, reading
     * (write 0) or writing; both lists must hold the same number of bytes. PLEXUS_SUCCESS;
     * PLEXUS_ERR_NOT_AVAILABLE (not permitted here), PLEXUS_ERR_UNREACH (no such process),
     * PLEXUS_ERR_BAD_PARAM (bad lists, or an address not mapped there), with *why. */
    int (*single_copy)(int32_t pid, const plexus_shm_iovec_t *local, size_t nlocal,
                       const plexus_shm_remote_iovec_t *remote, size_t nremote, int write, plexus_reason_t *why);

    /* ---- 1.1 (check struct_size or minor) ---- */
    /* Maps bytes [offset, offset + len) of the file behind descriptor fd of local process pid
     * (memory a peer published by fd and offset, such as MPI_Alloc_mem's memfds: the osc
     * services' mem_range), read-write and shared, through a duplicate borrowed by pidfd_getfd
     * and closed again at once: the mapping alone keeps the pages, so nothing outlives the last
     * process using them. *addr is the byte at offset. len > 0. PLEXUS_SUCCESS; UNREACH (the
     * descriptor cannot be borrowed: no pidfd_getfd, not permitted, no such process or fd),
     * BAD_PARAM (the range is not inside the file), with *why. */
    int (*peer_map)(int32_t pid, int32_t fd, uint64_t offset, uint64_t len, plexus_shm_peer_map_t **out,
                    void **addr, plexus_reason_t *why);
    /* Unmaps and frees a handle of peer_map. */
    int (*peer_unmap)(plexus_shm_peer_map_t *map);
};

#ifdef __cplusplus
}
#endif

#endif /* PLEXUS_SHM_H */
