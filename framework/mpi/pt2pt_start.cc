// The slow path of starting an operation: a refusal by the PML.
#include "mpi/pt2pt_start.h"

#include "mpi/error_codes.h"

namespace plexus::mpi {

int start_failed(Request *r, int error_class, const char *function) {
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
