// MPI_Probe, MPI_Iprobe, MPI_Cancel, MPI_Test_cancelled.
#include "mpi/api/profiling.h"
#include "mpi/arg_check.h"
#include "mpi/buffered_send.h"
#include "mpi/grequest.h"
#include "mpi/pt2pt_start.h"

using namespace plexus::mpi;

namespace {

void fill_probe_status(const ProbeResult &found, MPI_Status *status) {
    status->MPI_SOURCE = found.source;
    status->MPI_TAG = found.tag;
    status->plexus_count = found.bytes;
    status->plexus_cancelled = 0;
}

void fill_proc_null_status(MPI_Status *status) {
    status->MPI_SOURCE = MPI_PROC_NULL;
    status->MPI_TAG = MPI_ANY_TAG;
    status->plexus_count = 0;
    status->plexus_cancelled = 0;
}

// One look; when nothing is there, one pass of progress and a second look, so that a program
// polling with MPI_Iprobe makes the messages it waits for arrive.
int probe_once(MpiState &s, int source, int tag, MPI_Comm comm, bool *found, ProbeResult *out) {
    if (int rc = s.pml().iprobe(source, tag, comm, found, out)) return rc;
    if (*found) return MPI_SUCCESS;
    s.pml().progress();
    return s.pml().iprobe(source, tag, comm, found, out);
}

int probe_failed(MPI_Comm comm, int error_class, const char *fn) {
    return report_errorf(comm, error_class, "%s: the point-to-point layer could not probe on %s", fn,
                         comm_name(comm).c_str());
}

}  // namespace

extern "C" {

PLEXUS_MPI_ALIAS(Iprobe)
int PMPI_Iprobe(int source, int tag, MPI_Comm comm, int *flag, MPI_Status *status) {
    constexpr const char *fn = "MPI_Iprobe";
    MpiState &s = running(fn);
    if (int rc = check_probe(fn, source, tag, comm)) return rc;
    if (int rc = check_pointer(fn, comm, flag, "flag")) return rc;
    if (source == MPI_PROC_NULL) {
        *flag = 1;
        if (status) fill_proc_null_status(status);
        return MPI_SUCCESS;
    }
    bool found = false;
    ProbeResult result;
    if (int rc = probe_once(s, source, tag, comm, &found, &result)) return probe_failed(comm, rc, fn);
    *flag = found;
    if (found && status) fill_probe_status(result, status);
    return MPI_SUCCESS;
}

PLEXUS_MPI_ALIAS(Probe)
int PMPI_Probe(int source, int tag, MPI_Comm comm, MPI_Status *status) {
    constexpr const char *fn = "MPI_Probe";
    MpiState &s = running(fn);
    if (int rc = check_probe(fn, source, tag, comm)) return rc;
    if (source == MPI_PROC_NULL) {
        if (status) fill_proc_null_status(status);
        return MPI_SUCCESS;
    }
    bool found = false;
    int rc = MPI_SUCCESS;
    ProbeResult result;
    s.pml().wait_until([&] {
        rc = s.pml().iprobe(source, tag, comm, &found, &result);
        return found || rc != MPI_SUCCESS;
    });
    if (rc) return probe_failed(comm, rc, fn);
    if (status) fill_probe_status(result, status);
    return MPI_SUCCESS;
}

// Receives that have not matched are cancelled at once. A send is withdrawn if its receiver has
// not matched it yet: the PML asks the receiver, and the request completes with the answer
// (pml_cancel.cc); the user's handle of a buffered send follows the internal send that carries
// the copy. A generalized request calls its cancel_fn.
PLEXUS_MPI_ALIAS(Cancel)
int PMPI_Cancel(MPI_Request *request) {
    constexpr const char *fn = "MPI_Cancel";
    MpiState &s = running(fn);
    if (int rc = check_pointer(fn, MPI_COMM_WORLD, request, "request")) return rc;
    Request *r = *request;
    if (!request_valid(r))
        return report_errorf(MPI_COMM_WORLD, MPI_ERR_REQUEST, "%s: invalid request %s", fn,
                             r ? "(not a request: freed, or never made by MPI)" : "MPI_REQUEST_NULL");
    if (is_grequest(r)) return cancel_grequest(*r, fn);
    if (request_inactive(r)) return MPI_SUCCESS;
    if (r->kind == Request::Kind::Recv) {
        if (!r->complete) s.pml().cancel(r);
        return MPI_SUCCESS;
    }
    if (Request *sent = linked_send(r)) {
        // Asked once: until the answer the handle is incomplete, and after it the outcome stays.
        if (r->complete && !r->status.cancelled) {
            r->complete = false;
            s.pml().cancel_send(sent, r);
        }
        return MPI_SUCCESS;
    }
    if (r->mpi_flags & kRequestLocal) return MPI_SUCCESS;  // MPI_PROC_NULL; a copy already sent and reclaimed
    s.pml().cancel_send(r);
    return MPI_SUCCESS;
}

PLEXUS_MPI_ALIAS(Test_cancelled)
int PMPI_Test_cancelled(const MPI_Status *status, int *flag) {
    constexpr const char *fn = "MPI_Test_cancelled";
    running(fn);
    if (int rc = check_pointer(fn, MPI_COMM_WORLD, status, "status")) return rc;
    if (int rc = check_pointer(fn, MPI_COMM_WORLD, flag, "flag")) return rc;
    *flag = status->plexus_cancelled != 0;
    return MPI_SUCCESS;
}

}  // extern "C"
