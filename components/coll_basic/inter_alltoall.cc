// MPI_Alltoall, MPI_Alltoallv and MPI_Alltoallw on an inter-communicator: pairwise exchange across
// the groups (the MPICH / Open MPI default). With m = max(local size, remote size), round i
// (0 <= i < m) has local rank r send to remote rank (r + i) mod m and receive from remote rank
// (r - i) mod m; the remote side runs the same schedule, so in every round each message has its
// receive posted by exactly one peer, and a peer beyond the smaller group just sits the round out.
// One send and one receive per process per round: no process is flooded by the whole other group
// at once, whatever the sizes.
#include "basic_functions.h"
#include "inter_support.h"

namespace plexus::coll_basic {
namespace {

using namespace inter;

// What goes to or comes from one peer.
struct Block {
    const void *buf;
    int count;
    plexus_coll_dtype_t *type;
};

// send_block(peer) and recv_block(peer) give the blocks of remote rank peer.
template <typename SendBlock, typename RecvBlock>
int pairwise(const Call &c, int tag, SendBlock send_block, RecvBlock recv_block) {
    const int rounds = c.size > c.remote_size ? c.size : c.remote_size;
    Requests reqs(c.svc, c.comm);
    if (int rc = reqs.reserve(2); rc != PLEXUS_COLL_SUCCESS) return rc;
    for (int i = 0; i < rounds; ++i) {
        const int to = (c.rank + i) % rounds;
        const int from = (c.rank - i + rounds) % rounds;
        if (from < c.remote_size) {
            Block b = recv_block(from);
            reqs.irecv(const_cast<void *>(b.buf), b.count, b.type, from, tag);
        }
        if (to < c.remote_size) {
            Block b = send_block(to);
            reqs.isend(b.buf, b.count, b.type, to, tag);
        }
        if (int rc = reqs.wait_all(); rc != PLEXUS_COLL_SUCCESS) return rc;
    }
    return PLEXUS_COLL_SUCCESS;
}

}  // namespace

int inter_alltoall(plexus_coll_module_t *self, const void *sendbuf, int sendcount,
                   plexus_coll_dtype_t *sendtype, void *recvbuf, int recvcount,
                   plexus_coll_dtype_t *recvtype, plexus_coll_comm_t *comm) {
    const Call c = call_of(self, comm);
    Layout send, recv;
    if (int rc = get_layout(c.svc, sendtype, &send); rc != PLEXUS_COLL_SUCCESS) return rc;
    if (int rc = get_layout(c.svc, recvtype, &recv); rc != PLEXUS_COLL_SUCCESS) return rc;
    return pairwise(
        c, kTagAlltoall,
        [&](int peer) {
            return Block{send.at(sendbuf, 1L * peer * sendcount), sendcount, sendtype};
        },
        [&](int peer) {
            return Block{recv.at(recvbuf, 1L * peer * recvcount), recvcount, recvtype};
        });
}

int inter_alltoallv(plexus_coll_module_t *self, const void *sendbuf, const int sendcounts[],
                    const int sdispls[], plexus_coll_dtype_t *sendtype, void *recvbuf,
                    const int recvcounts[], const int rdispls[], plexus_coll_dtype_t *recvtype,
                    plexus_coll_comm_t *comm) {
    const Call c = call_of(self, comm);
    Layout send, recv;
    if (int rc = get_layout(c.svc, sendtype, &send); rc != PLEXUS_COLL_SUCCESS) return rc;
    if (int rc = get_layout(c.svc, recvtype, &recv); rc != PLEXUS_COLL_SUCCESS) return rc;
    return pairwise(
        c, kTagAlltoallv,
        [&](int peer) {
            return Block{send.at(sendbuf, sdispls[peer]), sendcounts[peer], sendtype};
        },
        [&](int peer) {
            return Block{recv.at(recvbuf, rdispls[peer]), recvcounts[peer], recvtype};
        });
}

int inter_alltoallw(plexus_coll_module_t *self, const void *sendbuf, const int sendcounts[],
                    const int sdispls[], plexus_coll_dtype_t *const sendtypes[], void *recvbuf,
                    const int recvcounts[], const int rdispls[],
                    plexus_coll_dtype_t *const recvtypes[], plexus_coll_comm_t *comm) {
    const Call c = call_of(self, comm);
    // Displacements in bytes (MPI_Alltoallw).
    return pairwise(
        c, kTagAlltoallw,
        [&](int peer) {
            return Block{at_bytes(sendbuf, sdispls[peer]), sendcounts[peer], sendtypes[peer]};
        },
        [&](int peer) {
            return Block{at_bytes(recvbuf, rdispls[peer]), recvcounts[peer], recvtypes[peer]};
        });
}

}  // namespace plexus::coll_basic
