#include "inter_link.h"

#include <unistd.h>

#include <algorithm>
#include <cstddef>

#include <plexus/shm.h>

#include "shm_buffer.h"
#include "shm_setup.h"
#include "shm_tags.h"

namespace plexus::coll_shm_inter::inter {
namespace {

const plexus_shm_services_t *shm_of(const plexus_host_api_t *host) {
    if (!host || host->struct_size < offsetof(plexus_host_api_t, shm) + sizeof host->shm)
        return nullptr;
    return host->shm;
}

// Fake nodes (coll_shm_inter_ranks_per_node, the tests' split) stand for separate hosts: the
// groups' processes are then taken as remote, which is how the fallback path is tested.
bool can_single_copy(const Env &env) {
    // Asked once: the kernel's answer does not change while the process runs.
    static const bool available = [&] {
        const plexus_shm_services_t *shm = shm_of(env.host);
        plexus_reason_t why{};
        return shm && shm->single_copy_available(&why) == 1;
    }();
    return env.params->ranks_per_node == 0 && available;
}

// 1 when all the peer's published bytes were read into dst (bytes long).
int read_peer(const Env &env, const LinkDesc &peer, void *dst, size_t bytes) {
    return peer.bytes == bytes ? link_read(env, peer, 0, dst, bytes) : 0;
}

bool linked(const Call &c, size_t bytes) {
    const size_t from = c.m->env.params->leaders_single_copy_from;
    return from > 0 && bytes >= from && fits_int(bytes);
}

}  // namespace

LinkDesc link_desc(const Env &env, const void *data, size_t bytes) {
    return LinkDesc{node_key(0, 0), reinterpret_cast<uint64_t>(data), bytes,
                    static_cast<int32_t>(getpid()), can_single_copy(env) ? 1 : 0};
}

bool link_same_node(const LinkDesc &a, const LinkDesc &b) {
    return a.can && b.can && a.node == b.node;
}

int link_read(const Env &env, const LinkDesc &peer, size_t offset, void *dst, size_t len) {
    if (len == 0) return 1;
    if (offset > peer.bytes || len > peer.bytes - offset) return 0;
    plexus_shm_iovec_t local{dst, len};
    plexus_shm_remote_iovec_t remote{peer.addr + offset, len};
    plexus_reason_t why{};
    return shm_of(env.host)->single_copy(peer.pid, &local, 1, &remote, 1, 0, &why) == PLEXUS_SUCCESS
               ? 1
               : 0;
}

int link_send(Call &c, const void *buf, int count, plexus_coll_dtype_t *type, int peer, int tag) {
    const plexus_coll_services_t *svc = c.svc;
    Packed data;
    if (int rc = data.init(svc, buf, count, type)) return rc;
    if (!linked(c, data.bytes())) return svc->send(buf, count, type, peer, tag, c.comm);
    if (int rc = data.pack()) return rc;
    const LinkDesc mine = link_desc(c.m->env, data.data(), data.bytes());
    int got = 0;
    if (int rc = svc->send(&mine, sizeof mine, svc->byte_type, peer, kTagLinkDesc, c.comm))
        return rc;
    // Until this answer comes the peer may be reading the buffer.
    if (int rc = svc->recv(&got, sizeof got, svc->byte_type, peer, kTagLinkAck, c.comm)) return rc;
    if (got) return PLEXUS_COLL_SUCCESS;
    return svc->send(data.data(), static_cast<int>(data.bytes()), svc->byte_type, peer, tag,
                     c.comm);
}

int link_recv(Call &c, void *buf, int count, plexus_coll_dtype_t *type, int peer, int tag) {
    const plexus_coll_services_t *svc = c.svc;
    Packed data;
    if (int rc = data.init(svc, buf, count, type)) return rc;
    if (!linked(c, data.bytes())) return svc->recv(buf, count, type, peer, tag, c.comm);
    LinkDesc theirs{};
    if (int rc = svc->recv(&theirs, sizeof theirs, svc->byte_type, peer, kTagLinkDesc, c.comm))
        return rc;
    const LinkDesc mine = link_desc(c.m->env, nullptr, 0);
    const int got =
        link_same_node(mine, theirs) ? read_peer(c.m->env, theirs, data.data(), data.bytes()) : 0;
    if (int rc = svc->send(&got, sizeof got, svc->byte_type, peer, kTagLinkAck, c.comm)) return rc;
    if (!got)
        if (int rc = svc->recv(data.data(), static_cast<int>(data.bytes()), svc->byte_type, peer,
                               tag, c.comm))
            return rc;
    return data.unpack();
}

int link_bcast_recv(Call &c, void *buf, int count, plexus_coll_dtype_t *type, int peer, int tag,
                    bool *relayed) {
    *relayed = false;
    const plexus_coll_services_t *svc = c.svc;
    Packed data;
    if (int rc = data.init(svc, buf, count, type)) return rc;
    if (!linked(c, data.bytes())) return svc->recv(buf, count, type, peer, tag, c.comm);
    int rc = PLEXUS_COLL_SUCCESS;
    TwoLevel *two = local_two(c, &rc);
    if (rc) return rc;
    // The group's phase goes by single copy for these bytes: ops::bcast and the engine decide so
    // from what this process knows alike (shm_ops.cc).
    const size_t from = c.m->env.params->single_copy_from;
    const bool group_reads = two && two->single_node() && two->single_copy() &&
                             two->engine().bcast_by_copy(data.bytes(), from);
    if (!group_reads) return link_recv(c, buf, count, type, peer, tag);
    LinkDesc theirs{};
    if ((rc = svc->recv(&theirs, sizeof theirs, svc->byte_type, peer, kTagLinkDesc, c.comm)))
        return rc;
    const LinkDesc mine = link_desc(c.m->env, nullptr, 0);
    int got = 0;
    if (link_same_node(mine, theirs) && theirs.bytes == data.bytes()) {
        rc = two->engine().bcast_relay(data.data(), data.bytes(), theirs.pid, theirs.addr);
        got = 1, *relayed = true;  // the root's buffer was read (or failed) by all: it may go
    }
    if (int sent = svc->send(&got, sizeof got, svc->byte_type, peer, kTagLinkAck, c.comm))
        return sent;
    if (rc) return rc;
    if (!got)
        if ((rc = svc->recv(data.data(), static_cast<int>(data.bytes()), svc->byte_type, peer, tag,
                            c.comm)))
            return rc;
    return data.unpack();
}

int link_swap(Call &c, const void *sendbuf, int sendcount, plexus_coll_dtype_t *sendtype,
              void *recvbuf, int recvcount, plexus_coll_dtype_t *recvtype, int peer, int tag) {
    const plexus_coll_services_t *svc = c.svc;
    Packed out, in;
    if (int rc = out.init(svc, sendbuf, sendcount, sendtype)) return rc;
    if (int rc = in.init(svc, recvbuf, recvcount, recvtype)) return rc;
    // The larger direction decides: both sides see the same two sizes.
    if (!linked(c, std::max(out.bytes(), in.bytes())) || !fits_int(out.bytes()) ||
        !fits_int(in.bytes()))
        return svc->sendrecv(sendbuf, sendcount, sendtype, peer, recvbuf, recvcount, recvtype, peer,
                             tag, c.comm);
    if (int rc = out.pack()) return rc;
    const LinkDesc mine = link_desc(c.m->env, out.data(), out.bytes());
    LinkDesc theirs{};
    if (int rc = svc->sendrecv(&mine, sizeof mine, svc->byte_type, peer, &theirs, sizeof theirs,
                               svc->byte_type, peer, kTagLinkDesc, c.comm))
        return rc;
    const int got =
        link_same_node(mine, theirs) ? read_peer(c.m->env, theirs, in.data(), in.bytes()) : 0;
    int peer_read = 0;
    if (int rc = svc->sendrecv(&got, sizeof got, svc->byte_type, peer, &peer_read, sizeof peer_read,
                               svc->byte_type, peer, kTagLinkAck, c.comm))
        return rc;
    // What either side could not read travels by point-to-point.
    plexus_coll_request_t *reqs[2] = {nullptr, nullptr};
    int n = 0, rc = PLEXUS_COLL_SUCCESS;
    if (!peer_read)
        rc = svc->isend(out.data(), static_cast<int>(out.bytes()), svc->byte_type, peer, tag,
                        c.comm, &reqs[n++]);
    if (!got && rc == PLEXUS_COLL_SUCCESS)
        rc = svc->irecv(in.data(), static_cast<int>(in.bytes()), svc->byte_type, peer, tag, c.comm,
                        &reqs[n++]);
    if (n > 0) {
        const int waited = svc->waitall(n, reqs);
        if (rc == PLEXUS_COLL_SUCCESS) rc = waited;
    }
    return rc ? rc : in.unpack();
}

}  // namespace plexus::coll_shm_inter::inter
