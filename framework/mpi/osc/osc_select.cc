// Per-window selection (osc_select.h): the scope, McaCore::select, the agreed fallback over the
// candidates, the verbose trace, and the modules' end.
#include "mpi/osc/osc_select.h"

#include <algorithm>
#include <string>
#include <vector>

#include "base/output.h"
#include "mca/mca_core.h"
#include "mpi/attributes/attribute_hooks.h"
#include "mpi/coll/coll_handles.h"
#include "mpi/errhandler.h"
#include "mpi/error_codes.h"
#include "mpi/mpi_state.h"
#include "mpi/osc/osc_services.h"
#include "mpi/osc/win_error.h"
#include "mpi/osc/win_handles.h"
#include "runtime/runtime.h"

namespace plexus::mpi::osc {
namespace {

constexpr const char *kFramework = "osc";

void trace(const Win &w, const std::string &what) {
    if (mca::framework_verbosity(kFramework) < PLEXUS_LOG_DECISION) return;
    mca::emit(PLEXUS_LOG_DECISION, kFramework,
              win_name(&w) + " (" + std::to_string(w.group_size()) + (w.group_size() == 1 ? " rank" : " ranks") +
                  ", " + std::to_string(w.size) + " bytes here): " + what);
}

// Members of the window's group on this node, the caller included (as coll counts them):
// proc ids below the world size are world ranks, which is what the runtime's node list holds.
int local_peers(const Comm &comm) {
    const runtime::Runtime *rt = runtime::Runtime::current();
    if (!rt || !g_mpi) return 1;
    std::vector<uint32_t> node = rt->job().local_peers;
    std::sort(node.begin(), node.end());
    const size_t world = g_mpi->procs().world_size();
    int n = 0;
    for (uint32_t p : comm.local_procs)
        if (p < world && std::binary_search(node.begin(), node.end(), p)) ++n;
    return std::max(n, 1);
}

plexus_osc_scope_t scope_of(Win &w) {
    plexus_osc_scope_t s{};
    s.struct_size = sizeof s;
    s.size = static_cast<uint64_t>(w.size);
    s.disp_unit = w.disp_unit;
    s.comm_size = w.group_size();
    s.local_peers = local_peers(*w.comm);
    s.flavor = w.flavor;
    s.rank = w.rank();
    s.base = w.size ? w.base : nullptr;
    s.win = osc_handle(&w);
    s.comm = coll::handle(w.comm);
    s.services = &services();
    return s;
}

// A stable number for a component's name, so that processes can see whether they agree.
int name_hash(const std::string &name) {
    uint32_t h = 2166136261u;
    for (unsigned char c : name) h = (h ^ c) * 16777619u;
    return static_cast<int>(h & 0x3fffffff);
}

bool module_usable(const plexus_osc_module_t *m, std::string *why) {
    if (!m) return *why = "it returned no module", false;
    if (m->struct_size < sizeof *m || m->major != PLEXUS_OSC_MAJOR)
        return *why = "its module was built for another osc.h (" + std::to_string(m->major) + "." +
                      std::to_string(m->minor) + ", struct of " + std::to_string(m->struct_size) + " bytes)",
               false;
    if (!m->win_init || !m->destroy) return *why = "its module has no win_init or destroy", false;
    return true;
}

// The outcome all processes agree on for one candidate: [0] a failure anywhere, [1] and [2]
// the largest name hash and the negated smallest (they differ when processes proposed
// different components). MPI_SUCCESS or the allreduce's error.
int agree(Win &w, int failed, const std::string &component, int out[3]) {
    const int h = name_hash(component);
    int mine[3] = {failed, h, -h};
    return PMPI_Allreduce(mine, out, 3, MPI_INT, MPI_MAX, w.comm);
}

struct Attempt {
    int local = PLEXUS_OSC_DECLINE;  // what win_init answered here
    std::string why;                 // refusal, for the trace and the final message
};

// Offers the window to one candidate and agrees on it; true when it serves the window.
bool try_candidate(Win &w, const mca::Decision &d, Attempt *a, int *agree_rc) {
    auto *m = static_cast<plexus_osc_module_t *>(d.module);
    const std::string &name = d.component->name;
    std::string why;
    if (!module_usable(m, &why)) {
        a->local = PLEXUS_OSC_ERR_INTERN;
    } else {
        void *base = w.base;
        w.module_error.clear();
        a->local = m->win_init(m, &base);
        if (a->local == PLEXUS_OSC_SUCCESS && w.flavor == PLEXUS_OSC_FLAVOR_ALLOCATE) w.base = base;
        if (a->local == PLEXUS_OSC_DECLINE) why = "declined";
        else if (a->local != PLEXUS_OSC_SUCCESS)
            why = "win_init failed with " + std::string(class_name(a->local) ? class_name(a->local) : "an unknown code") +
                  (w.module_error.empty() ? "" : ": " + w.module_error);
    }
    int all[3] = {0, 0, 0};
    if ((*agree_rc = agree(w, a->local != PLEXUS_OSC_SUCCESS, name, all))) return false;
    if (a->local == PLEXUS_OSC_SUCCESS && all[0]) why = "accepted here, refused by another process";
    if (all[0] == 0 && all[1] != -all[2]) why = "other processes proposed another component";
    const bool served = all[0] == 0 && all[1] == -all[2];
    a->why = served ? "" : name + " (priority " + std::to_string(d.priority) + ") " + why;
    trace(w, served ? "served by " + name + " (priority " + std::to_string(d.priority) + ")" : a->why + ", trying the next");
    return served;
}

// Every module the selection made except keep (destroyed unused: osc.h's rule).
void destroy_others(const mca::Selection &sel, const plexus_osc_module_t *keep) {
    for (const mca::Decision &d : sel.decisions) {
        auto *m = static_cast<plexus_osc_module_t *>(d.module);
        if (m && m != keep && m->struct_size >= sizeof *m && m->destroy) m->destroy(m);
    }
}

void release_comm(Win *w) {
    if (w->comm) PMPI_Comm_free(&w->comm);
}

// Chooses w's module; MPI_SUCCESS or an error class with *message saying why none serves it.
int select_module(Win &w, std::string *message) {
    mca::McaCore *core = mca::McaCore::current();
    if (!core) return *message = "the component framework is not running", MPI_ERR_INTERN;
    const plexus_osc_scope_t scope = scope_of(w);
    mca::Selection sel = core->select(kFramework, &scope);
    std::vector<std::string> refusals = sel.errors;
    refusals.insert(refusals.end(), sel.declines.begin(), sel.declines.end());
    int first_error = 0;
    for (size_t i : sel.selected) {
        Attempt a;
        int rc = MPI_SUCCESS;
        if (try_candidate(w, sel.at(i), &a, &rc)) {
            w.module = static_cast<plexus_osc_module_t *>(sel.at(i).module);
            w.component = sel.at(i).component->name;
            destroy_others(sel, w.module);
            return MPI_SUCCESS;
        }
        if (rc) {
            destroy_others(sel, nullptr);
            return *message = "the processes could not agree on a component (allreduce: " + std::to_string(rc) + ")",
                   MPI_ERR_INTERN;
        }
        if (!first_error && a.local > 0) first_error = a.local;
        refusals.push_back(a.why);
    }
    destroy_others(sel, nullptr);
    std::string tried;
    for (const std::string &r : refusals) tried += (tried.empty() ? "" : "; ") + r;
    *message = "no osc component serves this window of " + std::to_string(w.group_size()) + " processes (" +
               (tried.empty() ? "no osc component is available or admitted by the osc parameter" : "tried: " + tried) + ")";
    trace(w, *message);
    return first_error && class_name(first_error) ? first_error : MPI_ERR_UNSUPPORTED_OPERATION;
}

}  // namespace

int win_create(const char *function, void *base, MPI_Aint size, int disp_unit, const Info *info, Comm *comm,
               Win **out) {
    auto *w = new Win;
    w->base = base;
    w->size = size;
    w->disp_unit = disp_unit;
    if (info_valid(info))
        for (size_t i = 0; i < info->size(); ++i) w->info.set(info->key_at(i), *info->find(info->key_at(i)));
    if (int rc = PMPI_Comm_dup(comm, &w->comm)) {
        delete w;
        return rc;  // reported on comm by MPI_Comm_dup
    }
    // The module's traffic fails into codes it handles; the user's handler sees the window's errors.
    PMPI_Comm_set_errhandler(w->comm, MPI_ERRORS_RETURN);
    win_register(w);
    const std::string comm_label = "communicator of " + win_name(w);
    PMPI_Comm_set_name(w->comm, comm_label.c_str());
    errhandler_retain(w->errhandler);
    std::string message;
    if (int cls = select_module(*w, &message)) {
        release_comm(w);
        win_unregister(w);
        w->magic = 0;
        delete w;
        return report_errorf(comm, cls, "%s: %s", function, message.c_str());
    }
    *out = w;
    return MPI_SUCCESS;
}

int win_free(const char *function, Win **win) {
    Win *w = *win;
    // Inside an epoch the call is refused before anything is touched: the window stays usable.
    if (w->epochs.access || w->epochs.exposure || w->epochs.locks > 0)
        return report_win_errorf(w, MPI_ERR_RMA_SYNC,
                                 "%s: %s is inside %s (end it with %s first); the window was not freed", function,
                                 win_name(w).c_str(),
                                 w->epochs.locks > 0 ? "a lock epoch" : w->epochs.access ? "an access epoch of MPI_Win_start"
                                                                                         : "an exposure epoch of MPI_Win_post",
                                 w->epochs.locks > 0 ? "MPI_Win_unlock" : w->epochs.access ? "MPI_Win_complete" : "MPI_Win_wait");
    if (int rc = attributes_delete_all(AttributeHost{AttributeKind::Win, w, &w->attributes}))
        return report_win_code(w, rc,
                               std::string(function) + ": a delete callback of an attribute cached on " + win_name(w) +
                                   " returned error " + std::to_string(rc) + "; the window was not freed");
    const int rc = w->module->win_free ? w->module->win_free(w->module) : PLEXUS_OSC_SUCCESS;
    // A module that refuses with MPI_ERR_RMA_SYNC (an epoch only it knows of) has freed nothing:
    // the window stays, usable. Any other failure is reported on the window while it still
    // exists, and it is freed anyway, since the module's state is gone either way.
    if (rc == PLEXUS_OSC_ERR_RMA_SYNC)
        return report_module_error(w, rc, function, "the module refused to free the window; it was not freed");
    int reported = MPI_SUCCESS;
    if (rc != PLEXUS_OSC_SUCCESS) reported = report_module_error(w, rc, function, "the module could not free the window");
    w->module->destroy(w->module);
    w->module = nullptr;
    release_comm(w);
    win_unregister(w);
    errhandler_release(w->errhandler);
    w->magic = 0;
    delete w;
    *win = MPI_WIN_NULL;
    return reported;
}

Group *win_group(const Win *win) {
    return make_group(win->comm->local_procs, win->comm->local_procs[static_cast<size_t>(win->rank())]);
}

}  // namespace plexus::mpi::osc
