/* A profiling tool of the kind the MPI profiling interface exists for (MPI-2.2 chapter 14), in
 * the shape of mpiP: it defines MPI_ functions itself, counts the calls and the bytes the program
 * passes, does the work through the PMPI_ names, and at MPI_Finalize prints one line per function
 * summed over the ranks of MPI_COMM_WORLD (rank 0 prints, before the library shuts down):
 *
 *     count_calls: 4 ranks
 *     count_calls: MPI_Send calls 20 bytes 2000
 *     ...
 *
 * Bytes are what the call was given (count times the datatype's size): sent for sends, the
 * receive buffer for receives, both for MPI_Sendrecv, the buffer on every rank for MPI_Bcast and
 * the reductions. MPI_Pcontrol(0) stops the counting, MPI_Pcontrol(1) resumes it (MPI_Pcontrol
 * itself is always counted). Counters are plain: the tool is for single-threaded programs.
 *
 * Linked before libmpi or preloaded (LD_PRELOAD=libcount_calls.so), it replaces the library's
 * MPI_ names; calls the library makes inside itself are not counted (tests/pmpi/README.md). */
#include <mpi.h>
#include <stdio.h>

/* Every wrapped function, in the order of the summary. */
#define COUNTED(X)                                                                                  \
    X(Init) X(Init_thread) X(Finalize) X(Send) X(Ssend) X(Recv) X(Isend) X(Irecv) X(Sendrecv)      \
    X(Wait) X(Waitall) X(Waitany) X(Waitsome) X(Barrier) X(Bcast) X(Reduce) X(Allreduce) X(Gather) \
    X(Allgather) X(Alltoall) X(Comm_create_keyval) X(Comm_set_attr) X(Pcontrol)

enum counted_function {
#define AS_ENUM(name) COUNT_##name,
    COUNTED(AS_ENUM)
#undef AS_ENUM
    COUNTED_FUNCTIONS
};

static const char *const function_names[COUNTED_FUNCTIONS] = {
#define AS_NAME(name) "MPI_" #name,
    COUNTED(AS_NAME)
#undef AS_NAME
};

/* calls[f] and bytes[f] side by side, so that one reduction sums both. */
static long long counts[2][COUNTED_FUNCTIONS];
static int counting = 1;

static long long size_of(int count, MPI_Datatype type) {
    int size = 0;
    if (count <= 0 || PMPI_Type_size(type, &size) != MPI_SUCCESS) return 0;
    return (long long)count * size;
}

static void note(enum counted_function f, long long bytes) {
    if (!counting && f != COUNT_Pcontrol) return;
    counts[0][f]++;
    counts[1][f] += bytes;
}

static void print_summary(void) {
    long long total[2][COUNTED_FUNCTIONS];
    int rank = 0, size = 0, f;
    PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
    PMPI_Comm_size(MPI_COMM_WORLD, &size);
    if (PMPI_Reduce(counts, total, 2 * COUNTED_FUNCTIONS, MPI_LONG_LONG, MPI_SUM, 0, MPI_COMM_WORLD) !=
        MPI_SUCCESS) {
        fprintf(stderr, "count_calls: rank %d: the reduction of the counts failed\n", rank);
        return;
    }
    if (rank != 0) return;
    printf("count_calls: %d ranks\n", size);
    for (f = 0; f < COUNTED_FUNCTIONS; ++f)
        printf("count_calls: %s calls %lld bytes %lld\n", function_names[f], total[0][f], total[1][f]);
    fflush(stdout);
}

int MPI_Init(int *argc, char ***argv) {
    note(COUNT_Init, 0);
    return PMPI_Init(argc, argv);
}

int MPI_Init_thread(int *argc, char ***argv, int required, int *provided) {
    note(COUNT_Init_thread, 0);
    return PMPI_Init_thread(argc, argv, required, provided);
}

int MPI_Finalize(void) {
    note(COUNT_Finalize, 0);
    print_summary();
    return PMPI_Finalize();
}

int MPI_Send(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm) {
    note(COUNT_Send, size_of(count, datatype));
    return PMPI_Send(buf, count, datatype, dest, tag, comm);
}

int MPI_Ssend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm) {
    note(COUNT_Ssend, size_of(count, datatype));
    return PMPI_Ssend(buf, count, datatype, dest, tag, comm);
}

int MPI_Recv(void *buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
             MPI_Status *status) {
    note(COUNT_Recv, size_of(count, datatype));
    return PMPI_Recv(buf, count, datatype, source, tag, comm, status);
}

int MPI_Isend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
              MPI_Request *request) {
    note(COUNT_Isend, size_of(count, datatype));
    return PMPI_Isend(buf, count, datatype, dest, tag, comm, request);
}

int MPI_Irecv(void *buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
              MPI_Request *request) {
    note(COUNT_Irecv, size_of(count, datatype));
    return PMPI_Irecv(buf, count, datatype, source, tag, comm, request);
}

int MPI_Sendrecv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag,
                 void *recvbuf, int recvcount, MPI_Datatype recvtype, int source, int recvtag,
                 MPI_Comm comm, MPI_Status *status) {
    note(COUNT_Sendrecv, size_of(sendcount, sendtype) + size_of(recvcount, recvtype));
    return PMPI_Sendrecv(sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount, recvtype,
                         source, recvtag, comm, status);
}

int MPI_Wait(MPI_Request *request, MPI_Status *status) {
    note(COUNT_Wait, 0);
    return PMPI_Wait(request, status);
}

int MPI_Waitall(int count, MPI_Request array_of_requests[], MPI_Status array_of_statuses[]) {
    note(COUNT_Waitall, 0);
    return PMPI_Waitall(count, array_of_requests, array_of_statuses);
}

int MPI_Waitany(int count, MPI_Request array_of_requests[], int *index, MPI_Status *status) {
    note(COUNT_Waitany, 0);
    return PMPI_Waitany(count, array_of_requests, index, status);
}

int MPI_Waitsome(int incount, MPI_Request array_of_requests[], int *outcount, int array_of_indices[],
                 MPI_Status array_of_statuses[]) {
    note(COUNT_Waitsome, 0);
    return PMPI_Waitsome(incount, array_of_requests, outcount, array_of_indices, array_of_statuses);
}

int MPI_Barrier(MPI_Comm comm) {
    note(COUNT_Barrier, 0);
    return PMPI_Barrier(comm);
}

int MPI_Bcast(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm) {
    note(COUNT_Bcast, size_of(count, datatype));
    return PMPI_Bcast(buffer, count, datatype, root, comm);
}

int MPI_Reduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, int root,
               MPI_Comm comm) {
    note(COUNT_Reduce, size_of(count, datatype));
    return PMPI_Reduce(sendbuf, recvbuf, count, datatype, op, root, comm);
}

int MPI_Allreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                  MPI_Comm comm) {
    note(COUNT_Allreduce, size_of(count, datatype));
    return PMPI_Allreduce(sendbuf, recvbuf, count, datatype, op, comm);
}

int MPI_Gather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
               MPI_Datatype recvtype, int root, MPI_Comm comm) {
    note(COUNT_Gather, size_of(sendcount, sendtype));
    return PMPI_Gather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm);
}

int MPI_Allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                  MPI_Datatype recvtype, MPI_Comm comm) {
    note(COUNT_Allgather, size_of(sendcount, sendtype));
    return PMPI_Allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
}

int MPI_Alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                 MPI_Datatype recvtype, MPI_Comm comm) {
    note(COUNT_Alltoall, size_of(sendcount, sendtype));
    return PMPI_Alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
}

int MPI_Comm_create_keyval(MPI_Comm_copy_attr_function *comm_copy_attr_fn,
                           MPI_Comm_delete_attr_function *comm_delete_attr_fn, int *comm_keyval,
                           void *extra_state) {
    note(COUNT_Comm_create_keyval, 0);
    return PMPI_Comm_create_keyval(comm_copy_attr_fn, comm_delete_attr_fn, comm_keyval, extra_state);
}

int MPI_Comm_set_attr(MPI_Comm comm, int comm_keyval, void *attribute_val) {
    note(COUNT_Comm_set_attr, 0);
    return PMPI_Comm_set_attr(comm, comm_keyval, attribute_val);
}

int MPI_Pcontrol(const int level, ...) {
    note(COUNT_Pcontrol, 0);
    if (level == 0 || level == 1) counting = level;
    return PMPI_Pcontrol(level);
}
