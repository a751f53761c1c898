// Selection of the dpm component (single-select), its init and finalize, the parent.
#include "mpi/dpm/dpm.h"

#include "base/output.h"
#include "mca/mca_core.h"
#include "mpi/coll/coll_handles.h"
#include "mpi/dpm/dpm_api.h"
#include "mpi/dpm/dpm_services.h"
#include "mpi/error_codes.h"
#include "mpi/error_report.h"

namespace plexus::mpi::dpm {
namespace {

struct State {
    plexus_dpm_module_t *module = nullptr;
    std::string component;
    std::string why_none = "MPI is not running";
    Comm *parent = nullptr;
    std::string error;
};

State &state() {
    static State s;
    return s;
}

void trace(const std::string &what) { mca::emit(PLEXUS_LOG_DECISION, "dpm", what); }

bool usable(const plexus_dpm_module_t *m, std::string *why) {
    if (!m) return *why = "its query returned no module", false;
    if (m->major != PLEXUS_DPM_MAJOR || m->struct_size < sizeof *m)
        return *why = "its module was built for dpm.h " + std::to_string(m->major) + "." + std::to_string(m->minor) +
                      " (struct of " + std::to_string(m->struct_size) + " bytes)",
               false;
    if (!m->init || !m->spawn) return *why = "its module has no init or spawn", false;
    return true;
}

void choose() {
    State &s = state();
    s.module = nullptr;
    mca::McaCore *core = mca::McaCore::current();
    if (!core) {
        s.why_none = "the component framework is not running";
        return;
    }
    mca::Selection sel = core->select("dpm", nullptr);
    std::string refusals;
    for (const std::string &e : sel.errors) refusals += (refusals.empty() ? "" : "; ") + e;
    for (size_t i : sel.selected) {
        const mca::Decision &d = sel.at(i);
        auto *m = static_cast<plexus_dpm_module_t *>(d.module);
        std::string why;
        if (usable(m, &why)) {
            s.module = m;
            s.component = d.component->name;
            trace("dpm component " + s.component + " (priority " + std::to_string(d.priority) + ")");
            return;
        }
        refusals += (refusals.empty() ? "" : "; ") + d.component->name + ": " + why;
    }
    for (const mca::Decision &d : sel.decisions)
        if (!d.usable && !d.reason.empty()) refusals += (refusals.empty() ? "" : "; ") + d.component->name + ": " + d.reason;
    s.why_none = "no dpm component serves this process (" +
                 (refusals.empty() ? std::string("none is installed or admitted by the dpm parameter") : refusals) + ")";
    trace(s.why_none);
}

}  // namespace

void init(const char *function) {
    State &s = state();
    s.parent = nullptr;
    s.error.clear();
    choose();
    // Without a component a spawned job has no parent communicator; its parents' spawn then
    // fails at its timeout, saying that the children never answered.
    if (!s.module) return;
    plexus_coll_comm_t *parent = nullptr;
    LongWaits long_waits;  // a spawned job's other ranks wait while rank 0 meets the parents
    const int rc = s.module->init(s.module, &services(), coll::handle(MPI_COMM_WORLD), &parent);
    if (rc != PLEXUS_DPM_SUCCESS)
        abort_job(rc, std::string(function) + ": the dpm component " + s.component +
                          " could not start: " + (s.error.empty() ? class_text(rc) ? class_text(rc) : "?" : s.error));
    s.parent = parent ? coll::object(parent) : nullptr;
    if (s.parent) s.parent->name = "MPI_COMM_PARENT";  // MPI-2.2 6.8: its predefined name
    if (s.parent) trace("met the parent job: " + std::to_string(s.parent->remote_size()) + " parent process(es)");
}

void finalize() {
    State &s = state();
    if (s.module && s.module->finalize) s.module->finalize(s.module);
    s.module = nullptr;
    s.parent = nullptr;
    s.why_none = "MPI is finalized";
}

plexus_dpm_module_t *module(std::string *why) {
    if (!state().module && why) *why = state().why_none;
    return state().module;
}

Comm *parent() { return state().parent; }

void forget(const Comm *comm) {
    if (comm && state().parent == comm) state().parent = nullptr;
}

std::string take_error() {
    std::string e;
    e.swap(state().error);
    return e;
}

void set_error(const std::string &message) { state().error = message; }

}  // namespace plexus::mpi::dpm
