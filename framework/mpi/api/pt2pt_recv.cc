// MPI_Recv and MPI_Irecv.
#include "mpi/api/profiling.h"
#include "mpi/arg_check.h"
#include "mpi/pt2pt_start.h"

using namespace plexus::mpi;

extern "C" {

PLEXUS_MPI_ALIAS(Recv)
int PMPI_Recv(void *buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm, MPI_Status *status) {
    constexpr const char *fn = "MPI_Recv";
    MpiState &s = running(fn);
    if (int rc = check_pt2pt(fn, Direction::Recv, buf, count, datatype, source, tag, comm)) [[unlikely]]
        return rc;
    Request *r = s.blocking_recv();
    describe(r, RequestKind::Recv, SendMode::Standard, buf, count, datatype, source, tag, comm);
    if (int rc = start(s, r, fn)) [[unlikely]]
        return rc;
    wait_for(s, r);
    if (status) fill_status(*r, status);
    return request_error(*r, fn);
}

PLEXUS_MPI_ALIAS(Irecv)
int PMPI_Irecv(void *buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm, MPI_Request *request) {
    constexpr const char *fn = "MPI_Irecv";
    MpiState &s = running(fn);
    if (int rc = check_pt2pt(fn, Direction::Recv, buf, count, datatype, source, tag, comm)) [[unlikely]]
        return rc;
    if (!request) [[unlikely]]
        return check_pointer(fn, comm, request, "request");
    Request *r = s.new_request();
    describe(r, RequestKind::Recv, SendMode::Standard, buf, count, datatype, source, tag, comm);
    hold_datatype(r);
    if (int rc = start(s, r, fn)) [[unlikely]] {
        s.requests.put(r);
        return rc;
    }
    *request = r;
    return MPI_SUCCESS;
}

}  // extern "C"
