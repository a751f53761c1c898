#include "shm_decide.h"

namespace plexus::coll_shm_inter {
namespace {

// The large-message half of the table: single copy from `from` bytes (0: never).
bool copies(size_t bytes, size_t from, bool everyone_copies) {
    return from > 0 && bytes >= from && everyone_copies;
}

// The small-message half: the segment up to `max` bytes, any size when forced.
bool segment_takes(const Params &p, size_t bytes, size_t max) {
    return p.force || bytes <= max;
}

Path choose(const Params &p, size_t bytes, size_t max, size_t copy_from, bool everyone_copies,
            bool segment_possible = true) {
    if (copies(bytes, copy_from, everyone_copies)) return Path::SingleCopy;
    if (segment_possible && segment_takes(p, bytes, max)) return Path::Segment;
    return Path::Decline;
}

}  // namespace

const char *path_name(Path path) {
    switch (path) {
        case Path::Segment: return "segment";
        case Path::SingleCopy: return "single copy";
        case Path::RootCombines: return "single copy to the root";
        case Path::Decline: break;
    }
    return "declined";
}

Path decide_bcast(const Params &p, size_t bytes, bool everyone_copies) {
    return choose(p, bytes, p.bcast_max, p.single_copy_from, everyone_copies);
}

Path decide_reduce(const Params &p, size_t bytes, bool all, bool everyone_copies,
                   bool item_fits_slot, int procs) {
    if (!all && !copies(bytes, p.reduce_single_copy_from, everyone_copies) &&
        copies(bytes, p.reduce_root_copy_from, everyone_copies) && procs >= kRootCombinesFrom)
        return Path::RootCombines;
    return choose(p, bytes, all ? p.allreduce_max : p.reduce_max,
                  all ? p.allreduce_single_copy_from : p.reduce_single_copy_from, everyone_copies,
                  item_fits_slot);
}

Path decide_union_bcast(const Params &p, size_t bytes, bool everyone_copies) {
    if (!p.inter_union_rooted) return Path::Decline;
    if (bytes <= p.chunk) return Path::Segment;
    return everyone_copies ? Path::SingleCopy : Path::Decline;
}

Path decide_union_reduce(const Params &p, size_t bytes) {
    return p.inter_union_rooted && bytes <= p.chunk ? Path::Segment : Path::Decline;
}

Path decide_gather(const Params &p, size_t block, bool all, bool everyone_copies) {
    return choose(p, block, all ? p.allgather_max : p.gather_max,
                  all ? p.allgather_single_copy_from : p.gather_single_copy_from, everyone_copies);
}

Path decide_scatter(const Params &p, size_t block, bool everyone_copies) {
    return choose(p, block, p.gather_max, p.gather_single_copy_from, everyone_copies);
}

}  // namespace plexus::coll_shm_inter
