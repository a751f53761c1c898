// MPI_Comm_split, intra- and inter-communicator forms. Every process learns every (color, key)
// of its group (and, inter, of the remote group through the leaders); the processes of one color
// form a communicator, ordered by key then old rank. One context-id agreement serves every color:
// the colors' process sets are disjoint.
#include <algorithm>

#include "mpi/comm/agreement_channels.h"
#include "mpi/comm/comm_build.h"
#include "mpi/comm/comm_build_common.h"
#include "mpi/comm/internal_collectives.h"
#include "mpi/comm/internal_tags.h"
#include "mpi/comm/split_order.h"

namespace plexus::mpi {

namespace {

constexpr const char *kFn = "MPI_Comm_split";

int gather_colors(Comm *group_comm, int color, int key, std::vector<ColorKey> *all) {
    all->resize(static_cast<size_t>(group_comm->size()));
    const ColorKey mine{color, key};
    return internal::allgather(group_comm, &mine, sizeof mine, all->data());
}

std::vector<uint32_t> flatten(const std::vector<ColorKey> &v) {
    std::vector<uint32_t> out;
    for (const ColorKey &ck : v) {
        out.push_back(static_cast<uint32_t>(ck.color));
        out.push_back(static_cast<uint32_t>(ck.key));
    }
    return out;
}

std::vector<ColorKey> unflatten(const std::vector<uint32_t> &v) {
    std::vector<ColorKey> out;
    for (size_t i = 0; i + 1 < v.size(); i += 2)
        out.push_back({static_cast<int32_t>(v[i]), static_cast<int32_t>(v[i + 1])});
    return out;
}

int split_intra(Comm *comm, int color, int key, Comm **out) {
    std::vector<ColorKey> all;
    if (int rc = gather_colors(comm, color, key, &all))
        return build::step_failed(kFn, comm, "exchanging colors and keys", rc);
    IntraChannel channel(comm);
    std::vector<uint32_t> ids;
    if (int rc = build::agree(kFn, comm, channel, 1, &ids)) return rc;
    const std::vector<int> members = split_members(all, color);
    if (members.empty()) {
        build::give_back(ids);
        *out = MPI_COMM_NULL;
        return MPI_SUCCESS;
    }
    const int rank = static_cast<int>(std::find(members.begin(), members.end(), comm->rank) - members.begin());
    build::publish(build::make_intra(ids[0], build::procs_at(comm->local_procs, members), rank, comm), out);
    return MPI_SUCCESS;
}

int split_inter(Comm *comm, int color, int key, Comm **out) {
    Comm *local = comm->local_comm;
    std::vector<ColorKey> mine;
    if (int rc = gather_colors(local, color, key, &mine))
        return build::step_failed(kFn, comm, "exchanging colors and keys in the local group", rc);
    std::vector<uint32_t> remote_flat;
    if (local->rank == 0) {
        if (int rc = internal::exchange_vectors(comm, 0, tags::kLeaderExchange, flatten(mine), &remote_flat))
            return build::step_failed(kFn, comm, "exchanging colors and keys between the leaders", rc);
    }
    if (int rc = internal::bcast_vector(local, &remote_flat, 0))
        return build::step_failed(kFn, comm, "spreading the remote group's colors", rc);
    const std::vector<ColorKey> remote = unflatten(remote_flat);
    BridgedChannel channel(comm);
    std::vector<uint32_t> ids;
    if (int rc = build::agree(kFn, comm, channel, 2, &ids)) return rc;
    const std::vector<int> local_members = split_members(mine, color);
    const std::vector<int> remote_members = split_members(remote, color);
    if (local_members.empty() || remote_members.empty()) {
        build::give_back(ids);
        *out = MPI_COMM_NULL;
        return MPI_SUCCESS;
    }
    const int rank =
        static_cast<int>(std::find(local_members.begin(), local_members.end(), comm->rank) - local_members.begin());
    build::publish(build::make_inter(ids[0], ids[1], build::procs_at(comm->local_procs, local_members),
                                     build::procs_at(comm->remote_procs, remote_members), rank, comm),
                   out);
    return MPI_SUCCESS;
}

}  // namespace

int comm_split(Comm *comm, int color, int key, Comm **out) {
    build::reap();
    return comm->inter ? split_inter(comm, color, key, out) : split_intra(comm, color, key, out);
}

}  // namespace plexus::mpi
