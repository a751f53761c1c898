// Where a coll component's point-to-point tags travel: component tag t (0 .. PLEXUS_COLL_TAG_MAX)
// becomes the library tag kCollFirst - t, below communicator management's range and never
// matched by a user receive (MPI_ANY_TAG takes only tags >= 0). comm/internal_tags.h lists the
// ranges.
#pragma once

#include <plexus/coll.h>

#include "mpi/comm/internal_tags.h"

namespace plexus::mpi::coll {

static_assert(tags::kCollCount == PLEXUS_COLL_TAG_MAX + 1, "internal_tags.h reserves the whole coll tag space");

constexpr bool tag_valid(int tag) { return tag >= 0 && tag <= PLEXUS_COLL_TAG_MAX; }
// tag must be valid.
constexpr int wire_tag(int tag) { return tags::kCollFirst - tag; }
// The component tag of a library tag in the coll range; -1 for any other tag.
constexpr int component_tag(int wire) {
    return wire <= tags::kCollFirst && wire >= tags::kCollLast ? tags::kCollFirst - wire : -1;
}

}  // namespace plexus::mpi::coll
