// The slow paths of starting an operation: packed copies and refusals by the PML.
#include "mpi/pt2pt_start.h"

#include <cstdlib>

#include "mpi/error_codes.h"

namespace plexus::mpi {

int prepare_packed(Request *r, const char *function) {
    r->bytes = packed_bytes(r->datatype, r->count);
    r->mpi_data = std::malloc(r->bytes ? r->bytes : 1);
    if (!r->mpi_data)
        return report_errorf(r->comm, MPI_ERR_OTHER, "%s: out of memory for a packed copy of %d x %s (%zu bytes)",
                             function, r->count, type_name(r->datatype).c_str(), r->bytes);
    if (r->kind == Request::Kind::Send) {
        pack(*r->datatype, r->user_buf, r->count, r->mpi_data);
        r->mpi_flags |= kRequestPackedSend;
    } else {
        r->mpi_flags |= kRequestPackedRecv;
    }
    r->buf = r->mpi_data;
    return MPI_SUCCESS;
}

int start_failed(Request *r, int error_class, const char *function) {
    settle(r);  // drops a packed copy; nothing was received into it
    r->complete = true;
    const char *text = class_text(error_class) ? class_text(error_class) : "unknown error";
    const std::string comm = comm_name(r->comm);
    if (r->kind == Request::Kind::Send)
        return report_errorf(r->comm, error_class, "%s: the point-to-point layer could not start a send of %zu bytes to "
                             "rank %d with tag %d on %s: %s", function, r->bytes, r->peer, r->tag, comm.c_str(), text);
    return report_errorf(r->comm, error_class, "%s: the point-to-point layer could not start a receive of %zu bytes "
                         "from rank %d with tag %d on %s: %s", function, r->bytes, r->peer, r->tag, comm.c_str(), text);
}

}  // namespace plexus::mpi
