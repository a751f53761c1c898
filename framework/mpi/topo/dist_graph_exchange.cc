// A personalised exchange in size - 1 rounds (round k: to rank + k, from rank - k), a count then
// the records, so memory is what this process sends and receives, never the whole graph.
#include "mpi/topo/dist_graph_exchange.h"

#include <cstdint>
#include <vector>

#include "mpi/comm/internal_collectives.h"
#include "mpi/comm/internal_tags.h"

namespace plexus::mpi::topo {
namespace {

// Below the COLL range, where internal_tags.h leaves room for later library users.
constexpr int kTag = tags::kFirstFreeBelowColl;

// An edge as one of its ends learns it.
enum : int32_t { kIncoming = 0, kOutgoing = 1 };
struct EdgeEnd {
    int32_t direction, peer, weight;
};

// outbox[r]: what rank r learns from this process, in the order this process named the edges.
std::vector<std::vector<EdgeEnd>> sort_by_end(int size, int n, const int *sources, const int *degrees,
                                              const int *destinations, const int *weights) {
    std::vector<std::vector<EdgeEnd>> outbox(static_cast<size_t>(size));
    int k = 0;
    for (int i = 0; i < n; ++i) {
        for (int j = 0; j < degrees[i]; ++j, ++k) {
            const int s = sources[i], d = destinations[k], w = weights ? weights[k] : 1;
            outbox[static_cast<size_t>(d)].push_back({kIncoming, s, w});
            outbox[static_cast<size_t>(s)].push_back({kOutgoing, d, w});
        }
    }
    return outbox;
}

int swap_with(Comm *comm, int dest, int source, const std::vector<EdgeEnd> &out, std::vector<EdgeEnd> *in) {
    const uint32_t out_count = static_cast<uint32_t>(out.size());
    uint32_t in_count = 0;
    if (int rc = internal::shift(comm, dest, source, kTag, &out_count, sizeof out_count, &in_count, sizeof in_count))
        return rc;
    in->resize(in_count);
    static EdgeEnd none;  // a valid address for empty lists
    return internal::shift(comm, dest, source, kTag, out.empty() ? &none : out.data(), out.size() * sizeof(EdgeEnd),
                           in->empty() ? &none : in->data(), in->size() * sizeof(EdgeEnd));
}

}  // namespace

int dist_graph_exchange(Comm *comm, int n, const int *sources, const int *degrees, const int *destinations,
                        const int *weights, Topology *t) {
    const int size = comm->size(), me = comm->rank;
    std::vector<std::vector<EdgeEnd>> outbox = sort_by_end(size, n, sources, degrees, destinations, weights);
    std::vector<std::vector<EdgeEnd>> inbox(static_cast<size_t>(size));
    inbox[static_cast<size_t>(me)] = std::move(outbox[static_cast<size_t>(me)]);
    for (int k = 1; k < size; ++k) {
        const int dest = (me + k) % size, source = (me - k + size) % size;
        if (int rc = swap_with(comm, dest, source, outbox[static_cast<size_t>(dest)], &inbox[static_cast<size_t>(source)]))
            return rc;
    }
    for (const std::vector<EdgeEnd> &from : inbox) {
        for (const EdgeEnd &e : from) {
            if (e.direction == kIncoming) {
                t->sources.push_back(e.peer);
                t->source_weights.push_back(e.weight);
            } else {
                t->destinations.push_back(e.peer);
                t->destination_weights.push_back(e.weight);
            }
        }
    }
    return MPI_SUCCESS;
}

}  // namespace plexus::mpi::topo
