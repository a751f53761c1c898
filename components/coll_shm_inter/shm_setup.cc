#include "shm_setup.h"

#include <unistd.h>

#include <map>

namespace plexus::coll_shm_inter {

std::vector<std::vector<int>> node_groups(const std::vector<Record> &records) {
    std::vector<std::vector<int>> groups;
    std::map<uint64_t, size_t> index;
    for (size_t r = 0; r < records.size(); ++r) {
        auto [it, fresh] = index.emplace(records[r].node, groups.size());
        if (fresh) groups.emplace_back();
        groups[it->second].push_back(static_cast<int>(r));
    }
    return groups;
}

Peers Peers::of(const plexus_coll_services_t *svc, plexus_coll_comm_t *comm) {
    Peers p;
    p.svc = svc;
    p.low = comm;
    p.size = p.split = svc->comm_size(comm);
    p.rank = svc->comm_rank(comm);
    return p;
}

int Peers::send(const void *buf, int bytes, int peer, int tag) const {
    return peer < split ? svc->send(buf, bytes, svc->byte_type, peer, tag, low)
                        : svc->send(buf, bytes, svc->byte_type, peer - split, tag, high);
}

int Peers::recv(void *buf, int bytes, int peer, int tag) const {
    return peer < split ? svc->recv(buf, bytes, svc->byte_type, peer, tag, low)
                        : svc->recv(buf, bytes, svc->byte_type, peer - split, tag, high);
}

uint64_t node_key(int rank, int ranks_per_node) {
    char host[256] = {};
    gethostname(host, sizeof host - 1);
    uint64_t h = 1469598103934665603ull;  // FNV-1a
    for (const char *p = host; *p; ++p) h = (h ^ static_cast<unsigned char>(*p)) * 1099511628211ull;
    if (ranks_per_node > 0)
        h ^= (static_cast<uint64_t>(rank / ranks_per_node) + 1) * 0x9E3779B97F4A7C15ull;
    return h;
}

}  // namespace plexus::coll_shm_inter
