// MPI_Alltoall on an inter-communicator. Both groups on one node and small send buffers (a slot
// each): one phase over the union of both groups (inter_local.h), every process writing its
// whole send buffer into its slot and reading its block of each slot of the other group.
// Otherwise, for large blocks: still pairwise, as in the paper (a
// local phase gains nothing), but every pair on one node moves its block by single copy instead
// of by messages. Each process sends every process of the other group a descriptor of its packed
// send buffer; each reads its block of every peer's buffer (peer j's block for me starts at my
// rank times the block), answers every peer, and leaves once every peer answered (then nobody
// reads its buffer any more). A peer that is not on this node, or whose read failed, asks for
// the block and it travels by point-to-point. Smaller blocks (past neither side's
// coll_shm_inter_alltoall_single_copy_bytes) are declined: coll_basic's pairwise messages.
#include <algorithm>
#include <cstring>
#include <vector>

#include "inter_link.h"
#include "inter_local.h"
#include "shm_buffer.h"
#include "shm_decide.h"
#include "shm_functions.h"
#include "shm_tags.h"

namespace plexus::coll_shm_inter {

using namespace inter;

namespace {

// Posts n requests built by make(i, &req) and waits for all; the first error wins.
template <typename Make>
int post_all(const plexus_coll_services_t *svc, int n, Make make) {
    std::vector<plexus_coll_request_t *> reqs(static_cast<size_t>(n), nullptr);
    int rc = PLEXUS_COLL_SUCCESS;
    int posted = 0;
    for (int i = 0; i < n && rc == PLEXUS_COLL_SUCCESS; ++i)
        if ((rc = make(i, &reqs[static_cast<size_t>(posted)])) == PLEXUS_COLL_SUCCESS &&
            reqs[static_cast<size_t>(posted)])
            ++posted;
    const int waited = posted ? svc->waitall(posted, reqs.data()) : PLEXUS_COLL_SUCCESS;
    return rc ? rc : waited;
}

int union_alltoall(Call &c, TwoLevel &both, Packed &out, Packed &in) {
    const size_t block_in = in.bytes() / static_cast<size_t>(c.remote_size);
    // The other group's processes each send one block to each of this group's.
    if (!union_exchange_fits(*c.m->env.params, out.bytes(),
                             block_in * static_cast<size_t>(c.size)))
        return PLEXUS_COLL_DECLINE;
    if (out.bytes() == 0 && block_in == 0) return PLEXUS_COLL_SUCCESS;
    if (int rc = out.pack()) return rc;
    const int lo = union_other(c);
    const size_t at = static_cast<size_t>(c.rank) * block_in;
    const int rc =
        both.engine().exchange(out.data(), out.bytes(), lo, lo + c.remote_size, [&](auto slot_of) {
            for (int j = 0; j < c.remote_size; ++j)
                std::memcpy(in.data() + static_cast<size_t>(j) * block_in, slot_of(lo + j) + at,
                            block_in);
            return PLEXUS_COLL_SUCCESS;
        });
    return rc ? rc : in.unpack();
}

}  // namespace

int inter_alltoall(plexus_coll_module_t *self, const void *sendbuf, int sendcount,
                   plexus_coll_dtype_t *sendtype, void *recvbuf, int recvcount,
                   plexus_coll_dtype_t *recvtype, plexus_coll_comm_t *comm) {
    Call c = call_of(self, comm);
    const plexus_coll_services_t *svc = c.svc;
    const int peers = c.remote_size;
    const long total_out = static_cast<long>(peers) * sendcount;
    const long total_in = static_cast<long>(peers) * recvcount;
    if (total_out > INT_MAX || total_in > INT_MAX) return PLEXUS_COLL_DECLINE;
    Packed out, in;
    if (int rc = out.init(svc, sendbuf, total_out, sendtype)) return rc;
    if (int rc = in.init(svc, recvbuf, total_in, recvtype)) return rc;
    int made = PLEXUS_COLL_SUCCESS;
    if (TwoLevel *both = union_two(c, &made))
        if (int rc = union_alltoall(c, *both, out, in); rc != PLEXUS_COLL_DECLINE) return rc;
    if (made) return made;
    const size_t block_out = out.bytes() / static_cast<size_t>(peers);
    const size_t block_in = in.bytes() / static_cast<size_t>(peers);
    // Both groups see the same two block sizes (MPI's type-signature rule), so decide alike.
    const size_t from = c.m->env.params->alltoall_single_copy_from;
    if (from == 0 || std::max(block_out, block_in) < from || !fits_int(out.bytes()) ||
        !fits_int(in.bytes()))
        return PLEXUS_COLL_DECLINE;
    if (int rc = out.pack()) return rc;

    const LinkDesc mine = link_desc(c.m->env, out.data(), out.bytes());
    std::vector<LinkDesc> theirs(static_cast<size_t>(peers));
    std::vector<int> got(static_cast<size_t>(peers), 0), peer_got(static_cast<size_t>(peers), 0);
    const size_t desc_bytes = sizeof(LinkDesc);
    // Descriptors both ways.
    int rc = post_all(svc, 2 * peers, [&](int i, plexus_coll_request_t **r) {
        const int j = i % peers;
        return i < peers ? svc->irecv(&theirs[static_cast<size_t>(j)], static_cast<int>(desc_bytes),
                                      svc->byte_type, j, kTagLinkDesc, comm, r)
                         : svc->isend(&mine, static_cast<int>(desc_bytes), svc->byte_type, j,
                                      kTagLinkDesc, comm, r);
    });
    if (rc) return rc;
    // My block of every peer's buffer, starting with the next peer so that not everyone reads
    // the same process first.
    for (int k = 0; k < peers; ++k) {
        const int j = (c.rank + k) % peers;
        const LinkDesc &d = theirs[static_cast<size_t>(j)];
        if (link_same_node(mine, d))
            got[static_cast<size_t>(j)] =
                link_read(c.m->env, d, static_cast<size_t>(c.rank) * block_in,
                          in.data() + static_cast<size_t>(j) * block_in, block_in);
    }
    // Answers both ways; until every peer answered it may be reading my buffer.
    rc = post_all(svc, 2 * peers, [&](int i, plexus_coll_request_t **r) {
        const int j = i % peers;
        return i < peers ? svc->irecv(&peer_got[static_cast<size_t>(j)], sizeof(int),
                                      svc->byte_type, j, kTagLinkAck, comm, r)
                         : svc->isend(&got[static_cast<size_t>(j)], sizeof(int), svc->byte_type, j,
                                      kTagLinkAck, comm, r);
    });
    if (rc) return rc;
    // What could not be read travels by point-to-point.
    rc = post_all(svc, 2 * peers, [&](int i, plexus_coll_request_t **r) {
        const int j = i % peers;
        *r = nullptr;
        if (i < peers && !got[static_cast<size_t>(j)])
            return svc->irecv(in.data() + static_cast<size_t>(j) * block_in,
                              static_cast<int>(block_in), svc->byte_type, j, kTagInterAlltoall,
                              comm, r);
        if (i >= peers && !peer_got[static_cast<size_t>(j)])
            return svc->isend(out.data() + static_cast<size_t>(j) * block_out,
                              static_cast<int>(block_out), svc->byte_type, j, kTagInterAlltoall,
                              comm, r);
        return PLEXUS_COLL_SUCCESS;
    });
    return rc ? rc : in.unpack();
}

}  // namespace plexus::coll_shm_inter
