// The distance between two processes, from the finest level they share.
#include "mpi/topo/locality.h"

namespace plexus::mpi::topo {

int distance(const Locality &a, const Locality &b) {
    if (a.node != b.node) return 10;
    // kCore shared -> 0, kL2 -> 1, ... kPackage -> 4, nothing but the node -> 5.
    for (int level = kCore; level >= kPackage; --level)
        if (a.group[level] == b.group[level]) return kCore - level;
    return 5;
}

}  // namespace plexus::mpi::topo
