/* The six collectives the benchmark times, behind one interface: each can call itself on
 * MPI_COMM_WORLD for a message size, and fill its buffers with a pattern and check the result
 * once per size before that size is timed, so that a wrong result cannot pass for a fast run. */
#ifndef COLL_COLLECTIVES_H
#define COLL_COLLECTIVES_H

#include <stddef.h>

/* The buffers of one size. `size` is the message in bytes (Bcast, Reduce, Allreduce) or the
 * block each rank contributes (Allgather, Alltoall); the buffers hold size * ranks bytes. */
typedef struct {
    unsigned char *send, *recv;
    size_t size;
    int rank, ranks;
} coll_buffers;

typedef struct {
    const char *name; /* as on the command line and in the output: "bcast" */
    int has_size;     /* 0 for barrier: it is timed once, reported as size 0 */
    void (*call)(const coll_buffers *b);
    void (*fill)(const coll_buffers *b);  /* before the checked call */
    void (*check)(const coll_buffers *b); /* after it: MPI_Abort with what was wrong */
} coll_kind;

/* The collective named `name`, or NULL. */
const coll_kind *coll_find(const char *name);

/* "barrier,bcast,..." for usage messages. */
const char *coll_names(void);

/* Bytes the send and receive buffers need for a size on `ranks` ranks. */
size_t coll_buffer_bytes(size_t size, int ranks);

#endif
