// The shared parts of the dynamic-process calls.
#include "mpi/dpm/dpm_api.h"

#include "mpi/coll/coll_handles.h"
#include "mpi/comm/internal_collectives.h"
#include "mpi/dpm/dpm.h"
#include "mpi/dpm/dpm_disconnect.h"
#include "mpi/error_codes.h"
#include "mpi/error_report.h"
#include "mpi/mpi_state.h"

namespace plexus::mpi::dpm {

plexus_dpm_module_t *module_or_report(const char *function, const Comm *comm, int *rc) {
    std::string why;
    plexus_dpm_module_t *m = module(&why);
    if (!m) *rc = report_errorf(comm, MPI_ERR_UNSUPPORTED_OPERATION, "%s: %s", function, why.c_str());
    return m;
}

int module_result(const char *function, const Comm *comm, int rc, const char *what) {
    if (rc == MPI_SUCCESS) return MPI_SUCCESS;
    std::string message = take_error();
    if (message.empty()) message = std::string(what) + ": " + (class_text(rc) ? class_text(rc) : "unknown error");
    return report_errorf(comm, rc, "%s: %s", function, message.c_str());
}

int meeting_result(const char *function, const Comm *comm, int rc, plexus_coll_comm_t *out, MPI_Comm *newcomm,
                   const char *what) {
    if (rc == MPI_SUCCESS) {
        *newcomm = coll::object(out);
        return MPI_SUCCESS;
    }
    *newcomm = MPI_COMM_NULL;
    discard(out);  // before the report: an error handler may end the program
    return module_result(function, comm, rc, what);
}

int root_verdict(const char *function, Comm *comm, int root, int root_rc) {
    const bool is_root = comm->rank == root;
    int32_t verdict = is_root ? (root_rc == MPI_SUCCESS ? MPI_SUCCESS : error_class_of(root_rc)) : MPI_SUCCESS;
    if (int rc = internal::bcast(comm, &verdict, sizeof verdict, root))
        return report_errorf(comm, rc, "%s: hearing from the root (rank %d of %s) failed", function, root,
                             comm_name(comm).c_str());
    if (is_root) return root_rc;
    if (verdict != MPI_SUCCESS)
        return report_errorf(comm, verdict, "%s: the root (rank %d of %s) refused its arguments (%s); its own error "
                             "says which", function, root, comm_name(comm).c_str(),
                             class_name(verdict) ? class_name(verdict) : "?");
    return MPI_SUCCESS;
}

LongWaits::LongWaits() {
    if (!g_mpi) return;
    runtime::ProgressEngine &engine = g_mpi->pml().engine();
    saved_ = engine.policy();
    if (saved_.spins_forever() || saved_.max_sleep_us >= kLongWaitSleepUs) return;
    runtime::BackoffPolicy p = saved_;
    p.long_sleep_us = kLongWaitSleepUs;
    p.long_after_us = kLongWaitAfterUs;
    engine.set_policy(p);
    changed_ = true;
}

LongWaits::~LongWaits() {
    if (changed_ && g_mpi) g_mpi->pml().engine().set_policy(saved_);
}

int check_info(const char *function, const Comm *comm, const Info *info, const char *name) {
    if (info == MPI_INFO_NULL || info_valid(info)) return MPI_SUCCESS;
    return report_errorf(comm, MPI_ERR_INFO, "%s: invalid %s: not an info object (freed, or never made by MPI)",
                         function, name);
}

void InfoArrays::fill(const Info *info) {
    keys.clear();
    values.clear();
    if (info_valid(info))
        for (size_t i = 0; i < info->size(); ++i) {
            keys.push_back(info->key_at(i));
            values.push_back(*info->find(info->key_at(i)));
        }
    key_ptrs.clear();
    value_ptrs.clear();
    for (size_t i = 0; i < keys.size(); ++i) {
        key_ptrs.push_back(keys[i].c_str());
        value_ptrs.push_back(values[i].c_str());
    }
}

}  // namespace plexus::mpi::dpm
