// The slow path of completion: the messages of failed requests.
#include "mpi/request_complete.h"

#include <cstdlib>

#include "mpi/error_codes.h"
#include "mpi/error_report.h"

namespace plexus::mpi {

namespace {

std::string rank_text(int rank) { return rank == MPI_ANY_SOURCE ? "MPI_ANY_SOURCE" : "rank " + std::to_string(rank); }
std::string tag_text(int tag) { return tag == MPI_ANY_TAG ? "MPI_ANY_TAG" : "tag " + std::to_string(tag); }

}  // namespace

int report_request_error(const Request &r, const char *function) {
    const std::string comm = comm_name(r.comm);
    // Sends made of raw bytes (Sendrecv_replace, Bsend copies) have no datatype of their own.
    const std::string what = r.datatype ? std::to_string(r.count) + " x " + type_name(r.datatype)
                                        : std::to_string(r.bytes) + " bytes";
    if (r.kind == Request::Kind::Recv && r.status.error == MPI_ERR_TRUNCATE) {
        const std::string sent = r.status.bytes > r.bytes ? std::to_string(r.status.bytes) + " bytes"
                                                          : "more than " + std::to_string(r.bytes) + " bytes";
        return report_errorf(r.comm, MPI_ERR_TRUNCATE,
                             "%s: message truncated: rank %d sent %s with tag %d on %s; the receive buffer "
                             "holds %zu bytes (%s)",
                             function, r.status.source, sent.c_str(), r.status.tag, comm.c_str(), r.bytes,
                             what.c_str());
    }
    const char *text = class_text(r.status.error) ? class_text(r.status.error) : "unknown error";
    if (r.kind == Request::Kind::Recv)
        return report_errorf(r.comm, r.status.error, "%s: the receive of %s from %s with %s on %s failed: %s",
                             function, what.c_str(), rank_text(r.peer).c_str(), tag_text(r.tag).c_str(),
                             comm.c_str(), text);
    return report_errorf(r.comm, r.status.error, "%s: the send of %s to rank %d with tag %d on %s failed: %s", function,
                         what.c_str(), r.peer, r.tag, comm.c_str(), text);
}

}  // namespace plexus::mpi
