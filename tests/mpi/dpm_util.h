/* Shared by the dynamic-process tests (tests/mpi/dpm_*.c): byte-for-byte exchanges across an
 * inter-communicator, merges checked both ways, and the counts of open fds and /dev/shm entries
 * for the loops that must leave both flat. MPI-2.2 C API only. */
#ifndef PLEXUS_TESTS_MPI_DPM_UTIL_H
#define PLEXUS_TESTS_MPI_DPM_UTIL_H

#ifndef _DEFAULT_SOURCE
#define _DEFAULT_SOURCE /* realpath, opendir */
#endif
#include <dirent.h>

#include "test_util.h"

#define DPM_TAG 77

/* A byte of the message from (group, rank) to (group, rank): every byte depends on all four. */
static inline unsigned char dpm_byte(int from_group, int from, int to, size_t i)
{
    return (unsigned char)(i * 131u + (unsigned)from * 17u + (unsigned)to * 5u + (unsigned)from_group * 101u + 3u);
}

/* Every process of this group sends `bytes` to every process of the remote group and receives
 * theirs, checking each byte. group: 0 for the parents' side, 1 for the children's. */
static inline void dpm_exchange(MPI_Comm inter, int group, size_t bytes)
{
    int rank, remote;
    MPI_Comm_rank(inter, &rank);
    MPI_Comm_remote_size(inter, &remote);
    unsigned char *out = malloc(bytes + 1), *in = malloc(bytes + 1);
    CHECK(out && in, "out of memory for %zu bytes", bytes);
    for (int peer = 0; peer < remote; ++peer) {
        for (size_t i = 0; i < bytes; ++i) out[i] = dpm_byte(group, rank, peer, i);
        MPI_Request req;
        CHECK_MPI(MPI_Irecv(in, (int)bytes, MPI_BYTE, peer, DPM_TAG, inter, &req));
        CHECK_MPI(MPI_Send(out, (int)bytes, MPI_BYTE, peer, DPM_TAG, inter));
        MPI_Status st;
        CHECK_MPI(MPI_Wait(&req, &st));
        int got = -1;
        MPI_Get_count(&st, MPI_BYTE, &got);
        CHECK_EQ(got, bytes);
        CHECK_EQ(st.MPI_SOURCE, peer);
        for (size_t i = 0; i < bytes; ++i)
            CHECK(in[i] == dpm_byte(1 - group, peer, rank, i), "byte %zu from remote rank %d: got %u, expected %u", i,
                  peer, in[i], dpm_byte(1 - group, peer, rank, i));
    }
    free(out);
    free(in);
}

/* Merges with this group first (high = 0) or second, checks the rank order, and runs an
 * allreduce and a bcast over the result. */
static inline void dpm_merge_check(MPI_Comm inter, int high)
{
    int rank, size, remote;
    MPI_Comm_rank(inter, &rank);
    MPI_Comm_size(inter, &size);
    MPI_Comm_remote_size(inter, &remote);
    MPI_Comm merged;
    CHECK_MPI(MPI_Intercomm_merge(inter, high, &merged));
    int mrank, msize;
    MPI_Comm_rank(merged, &mrank);
    MPI_Comm_size(merged, &msize);
    CHECK_EQ(msize, size + remote);
    CHECK_EQ(mrank, high ? remote + rank : rank);
    long mine = mrank + 1, sum = 0;
    CHECK_MPI(MPI_Allreduce(&mine, &sum, 1, MPI_LONG, MPI_SUM, merged));
    CHECK_EQ(sum, (long)msize * (msize + 1) / 2);
    int token = mrank == msize - 1 ? 4711 : -1;
    CHECK_MPI(MPI_Bcast(&token, 1, MPI_INT, msize - 1, merged));
    CHECK_EQ(token, 4711);
    CHECK_MPI(MPI_Comm_free(&merged));
}

static inline int dpm_count_dir(const char *path)
{
    DIR *d = opendir(path);
    int n = 0;
    if (!d) return -1;
    for (struct dirent *e; (e = readdir(d)) != NULL;)
        if (e->d_name[0] != '.') ++n;
    closedir(d);
    return n;
}

#endif
