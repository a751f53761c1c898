// Group objects: creation, references, the predefined MPI_GROUP_EMPTY, and the release of
// forgotten groups at MPI_Finalize.
#include "mpi/comm/group.h"

#include <algorithm>
#include <unordered_set>

using plexus::mpi::Group;

extern "C" {
// An exported object, so that the handle has the same bits in every process and every run.
Group plexus_mpi_group_empty{.magic = Group::kMagic, .references = 1, .predefined = true, .rank = MPI_UNDEFINED, .procs = {}};
}

namespace plexus::mpi {

namespace {
// Every group made and not yet deleted.
std::unordered_set<Group *> &live() {
    static std::unordered_set<Group *> groups;
    return groups;
}
}  // namespace

int rank_of(const std::vector<uint32_t> &procs, uint32_t proc) {
    const auto it = std::find(procs.begin(), procs.end(), proc);
    return it == procs.end() ? MPI_UNDEFINED : static_cast<int>(it - procs.begin());
}

Group *make_group(std::vector<uint32_t> procs, uint32_t self) {
    if (procs.empty()) return MPI_GROUP_EMPTY;
    auto *g = new Group();
    g->rank = rank_of(procs, self);
    g->procs = std::move(procs);
    live().insert(g);
    return g;
}

void group_retain(Group *g) {
    if (!g->predefined) ++g->references;
}

void group_release(Group *g) {
    if (g->predefined) return;
    if (--g->references > 0) return;
    g->magic = 0;  // a stale handle is refused from here on
    live().erase(g);
    delete g;
}

void release_all_groups() {
    for (Group *g : live()) {
        g->magic = 0;
        delete g;
    }
    live().clear();
}

size_t live_groups() { return live().size(); }

bool group_names(uint32_t proc) {
    return std::any_of(live().begin(), live().end(), [proc](const Group *g) {
        return std::find(g->procs.begin(), g->procs.end(), proc) != g->procs.end();
    });
}

}  // namespace plexus::mpi
