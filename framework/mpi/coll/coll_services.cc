// The services behind plexus_coll_services_t. Arguments a component could get wrong (a tag
// outside the collective space, a rank outside the communicator) are refused with an error class
// instead of reaching the PML; the rest was checked by the MPI call that led here.
#include "mpi/coll/coll_services.h"

#include "base/output.h"
#include "mpi/arg_check.h"
#include "mpi/datatype/typed_copy.h"
#include "mpi/coll/coll_dispatch.h"
#include "mpi/coll/coll_handles.h"
#include "mpi/coll/coll_tags.h"
#include "mpi/error_codes.h"
#include "mpi/op/op.h"
#include "mpi/pt2pt_start.h"
#include "mpi/request_pool.h"

namespace plexus::mpi::coll {
namespace {

constexpr const char *kIsend = "coll service isend";
constexpr const char *kIrecv = "coll service irecv";

// A code that came back from reporting (start_failed) or a class: the class.
int class_of(int rc) {
    const int cls = error_class_of(rc);
    return cls > MPI_SUCCESS ? cls : MPI_ERR_INTERN;
}

int check(Comm *comm, int peer, int tag, Direction dir) {
    if (!tag_valid(tag)) [[unlikely]]
        return MPI_ERR_TAG;
    if (!peer_valid(comm, peer, dir)) [[unlikely]]
        return MPI_ERR_RANK;
    return MPI_SUCCESS;
}

void describe_op(Request *r, RequestKind kind, const void *buf, int count, plexus_coll_dtype_t *type, int peer,
                 int tag, plexus_coll_comm_t *comm) {
    describe(r, kind, SendMode::Standard, buf, count, object(type), peer, wire_tag(tag), object(comm));
}

// Starts r and waits for it (requests on the caller's stack).
int run_blocking(Request *r, const char *function) {
    MpiState &s = *g_mpi;
    if (int rc = start(s, r, function)) [[unlikely]]
        return class_of(rc);
    wait_for(s, r);
    return r->status.error;
}

// ---- the communicator
int comm_rank(plexus_coll_comm_t *comm) { return object(comm)->rank; }
int comm_size(plexus_coll_comm_t *comm) { return object(comm)->size(); }
int comm_remote_size(plexus_coll_comm_t *comm) { return object(comm)->inter ? object(comm)->remote_size() : 0; }
int comm_is_inter(plexus_coll_comm_t *comm) { return object(comm)->inter; }
plexus_coll_comm_t *comm_local(plexus_coll_comm_t *comm) {
    Comm *c = object(comm);
    return c->inter ? handle(c->local_comm) : nullptr;
}

// ---- point-to-point
int start_nonblocking(RequestKind kind, const void *buf, int count, plexus_coll_dtype_t *type, int peer, int tag,
                      plexus_coll_comm_t *comm, plexus_coll_request_t **request) {
    const Direction dir = kind == RequestKind::Send ? Direction::Send : Direction::Recv;
    if (int rc = check(object(comm), peer, tag, dir)) [[unlikely]]
        return rc;
    MpiState &s = *g_mpi;
    Request *r = s.new_request();
    describe_op(r, kind, buf, count, type, peer, tag, comm);
    if (int rc = start(s, r, kind == RequestKind::Send ? kIsend : kIrecv)) [[unlikely]] {
        s.requests.put(r);
        return class_of(rc);
    }
    *request = handle(r);
    return MPI_SUCCESS;
}

int isend(const void *buf, int count, plexus_coll_dtype_t *type, int peer, int tag, plexus_coll_comm_t *comm,
          plexus_coll_request_t **request) {
    return start_nonblocking(RequestKind::Send, buf, count, type, peer, tag, comm, request);
}

int irecv(void *buf, int count, plexus_coll_dtype_t *type, int peer, int tag, plexus_coll_comm_t *comm,
          plexus_coll_request_t **request) {
    return start_nonblocking(RequestKind::Recv, buf, count, type, peer, tag, comm, request);
}

// Completes and releases one request; a null handle has nothing to wait for.
int wait(plexus_coll_request_t **request) {
    if (!request || !*request) return MPI_SUCCESS;
    MpiState &s = *g_mpi;
    Request *r = object(*request);
    wait_for(s, r);
    const int rc = r->status.error;
    s.requests.put(r);
    *request = nullptr;
    return rc;
}

// Every request is completed and released, also after a failed one: the first error is returned.
int waitall(int n, plexus_coll_request_t *requests[]) {
    int first = MPI_SUCCESS;
    for (int i = 0; i < n; ++i)
        if (int rc = wait(&requests[i]); rc && !first) first = rc;
    return first;
}

int send(const void *buf, int count, plexus_coll_dtype_t *type, int peer, int tag, plexus_coll_comm_t *comm) {
    if (int rc = check(object(comm), peer, tag, Direction::Send)) [[unlikely]]
        return rc;
    Request r;
    describe_op(&r, RequestKind::Send, buf, count, type, peer, tag, comm);
    return run_blocking(&r, "coll service send");
}

int recv(void *buf, int count, plexus_coll_dtype_t *type, int peer, int tag, plexus_coll_comm_t *comm) {
    if (int rc = check(object(comm), peer, tag, Direction::Recv)) [[unlikely]]
        return rc;
    Request r;
    describe_op(&r, RequestKind::Recv, buf, count, type, peer, tag, comm);
    return run_blocking(&r, "coll service recv");
}

// Both posted before either is waited for: two processes exchanging with each other never wait
// for one another.
int sendrecv(const void *sendbuf, int sendcount, plexus_coll_dtype_t *sendtype, int dest, void *recvbuf,
             int recvcount, plexus_coll_dtype_t *recvtype, int source, int tag, plexus_coll_comm_t *comm) {
    Comm *c = object(comm);
    if (int rc = check(c, dest, tag, Direction::Send)) [[unlikely]]
        return rc;
    if (int rc = check(c, source, tag, Direction::Recv)) [[unlikely]]
        return rc;
    MpiState &s = *g_mpi;
    Request rr, sr;
    describe_op(&rr, RequestKind::Recv, recvbuf, recvcount, recvtype, source, tag, comm);
    describe_op(&sr, RequestKind::Send, sendbuf, sendcount, sendtype, dest, tag, comm);
    if (int rc = start(s, &rr, "coll service sendrecv")) [[unlikely]]
        return class_of(rc);
    if (int rc = start(s, &sr, "coll service sendrecv")) [[unlikely]] {
        s.pml().cancel(&rr);
        wait_for(s, &rr);
        return class_of(rc);
    }
    s.pml().wait_until([&] { return rr.complete && sr.complete; });
    return sr.status.error ? sr.status.error : rr.status.error;
}

// ---- datatypes
int dtype_info(plexus_coll_dtype_t *type, plexus_coll_dtype_info_t *out) {
    if (!out || out->struct_size < sizeof *out) return MPI_ERR_ARG;
    const Datatype *t = object(type);
    out->contiguous = t->contiguous;
    out->size = t->size;
    out->lb = t->lb;
    out->extent = t->extent;
    out->true_lb = t->true_lb;
    out->true_extent = t->true_extent;
    return MPI_SUCCESS;
}

int copy(const void *src, int src_count, plexus_coll_dtype_t *src_type, void *dst, int dst_count,
         plexus_coll_dtype_t *dst_type) {
    return typed_copy(src, src_count, *object(src_type), dst, dst_count, *object(dst_type));
}

// ---- reductions
int op_apply(plexus_coll_op_t *op, const void *in, void *inout, int count, plexus_coll_dtype_t *type) {
    return mpi::op_apply(*object(op), in, inout, count, object(type));
}

int op_commutative(plexus_coll_op_t *op) { return object(op)->commutative; }

int verbosity() { return mca::framework_verbosity("coll"); }

}  // namespace

const plexus_coll_services_t &services() {
    static const plexus_coll_services_t table = {
        sizeof(plexus_coll_services_t),
        PLEXUS_COLL_SERVICES_MAJOR,
        PLEXUS_COLL_SERVICES_MINOR,
        comm_rank,
        comm_size,
        comm_remote_size,
        comm_is_inter,
        comm_local,
        isend,
        irecv,
        wait,
        waitall,
        send,
        recv,
        sendrecv,
        reinterpret_cast<plexus_coll_dtype_t *>(MPI_BYTE),
        dtype_info,
        copy,
        op_apply,
        op_commutative,
        &dispatch_table(),
        verbosity,
    };
    return table;
}

}  // namespace plexus::mpi::coll
