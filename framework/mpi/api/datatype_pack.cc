// MPI_Pack, MPI_Unpack, MPI_Pack_size and MPI_Get_address. Packed bytes are the type's data in
// type-map order with nothing added (one process, one representation), so MPI_Pack_size is
// exact and a packed buffer may travel as MPI_PACKED or as the type itself.
#include <climits>
#include <cstdint>

#include "mpi/api/profiling.h"
#include "mpi/arg_check.h"
#include "mpi/datatype/type_args.h"
#include "mpi/mpi_state.h"

using namespace plexus::mpi;

namespace {

// A position within a buffer of size bytes: 0..size (MPI_ERR_ARG).
int check_position(const char *fn, const Comm *comm, const int *position, int size, const char *size_name) {
    if (int rc = check_pointer(fn, comm, position, "position")) return rc;
    if (*position < 0 || *position > size)
        return report_errorf(comm, MPI_ERR_ARG, "%s: invalid *position %d: positions are 0..%s (%d)", fn, *position,
                             size_name, size);
    return MPI_SUCCESS;
}

// The arguments MPI_Pack and MPI_Unpack share: the items, their type and the communicator.
int check_items(const char *fn, const Comm *comm, const void *buf, int count, const char *count_name,
                const Datatype *type, const char *buf_name) {
    if (int rc = check_comm(fn, comm)) return rc;
    if (count < 0)
        return report_errorf(comm, MPI_ERR_COUNT, "%s: invalid %s %d: counts are 0 or more", fn, count_name, count);
    if (int rc = check_datatype(fn, comm, type)) return rc;
    if (!buf && count > 0 && type->predefined)
        return report_errorf(comm, MPI_ERR_BUFFER, "%s: invalid %s: NULL with %s %d of %s", fn, buf_name, count_name,
                             count, type_name(type).c_str());
    return MPI_SUCCESS;
}

}  // namespace

extern "C" {

PLEXUS_MPI_ALIAS(Pack)
int PMPI_Pack(const void *inbuf, int incount, MPI_Datatype datatype, void *outbuf, int outsize, int *position,
              MPI_Comm comm) {
    constexpr const char *fn = "MPI_Pack";
    running(fn);
    if (int rc = check_items(fn, comm, inbuf, incount, "incount", datatype, "inbuf")) return rc;
    if (outsize < 0)
        return report_errorf(comm, MPI_ERR_ARG, "%s: invalid outsize %d: sizes are 0 or more", fn, outsize);
    if (int rc = check_position(fn, comm, position, outsize, "outsize")) return rc;
    const size_t bytes = packed_bytes(datatype, incount);
    if (bytes > size_t(outsize - *position))
        return report_errorf(comm, MPI_ERR_TRUNCATE,
                             "%s: %d x %s packs into %zu bytes; outbuf has %d bytes from position %d (outsize %d)", fn,
                             incount, type_name(datatype).c_str(), bytes, outsize - *position, *position, outsize);
    if (bytes && !outbuf) return check_pointer(fn, comm, outbuf, "outbuf");
    if (bytes) pack(*datatype, inbuf, incount, static_cast<char *>(outbuf) + *position);
    *position += static_cast<int>(bytes);
    return MPI_SUCCESS;
}

PLEXUS_MPI_ALIAS(Unpack)
int PMPI_Unpack(const void *inbuf, int insize, int *position, void *outbuf, int outcount, MPI_Datatype datatype,
                MPI_Comm comm) {
    constexpr const char *fn = "MPI_Unpack";
    running(fn);
    if (int rc = check_items(fn, comm, outbuf, outcount, "outcount", datatype, "outbuf")) return rc;
    if (insize < 0) return report_errorf(comm, MPI_ERR_ARG, "%s: invalid insize %d: sizes are 0 or more", fn, insize);
    if (int rc = check_position(fn, comm, position, insize, "insize")) return rc;
    const size_t bytes = packed_bytes(datatype, outcount);
    if (bytes > size_t(insize - *position))
        return report_errorf(comm, MPI_ERR_TRUNCATE,
                             "%s: %d x %s needs %zu packed bytes; inbuf has %d bytes from position %d (insize %d)", fn,
                             outcount, type_name(datatype).c_str(), bytes, insize - *position, *position, insize);
    if (bytes && !inbuf) return check_pointer(fn, comm, inbuf, "inbuf");
    if (bytes) unpack_range(*datatype, outbuf, size_t(outcount), 0, bytes, static_cast<const char *>(inbuf) + *position);
    *position += static_cast<int>(bytes);
    return MPI_SUCCESS;
}

PLEXUS_MPI_ALIAS(Pack_size)
int PMPI_Pack_size(int incount, MPI_Datatype datatype, MPI_Comm comm, int *size) {
    constexpr const char *fn = "MPI_Pack_size";
    running(fn);
    if (int rc = check_comm(fn, comm)) return rc;
    if (incount < 0)
        return report_errorf(comm, MPI_ERR_COUNT, "%s: invalid incount %d: counts are 0 or more", fn, incount);
    if (int rc = check_datatype(fn, comm, datatype)) return rc;
    if (int rc = check_pointer(fn, comm, size, "size")) return rc;
    const size_t bytes = packed_bytes(datatype, incount);
    if (bytes > size_t(INT_MAX))
        return report_errorf(comm, MPI_ERR_ARG, "%s: %d x %s packs into %zu bytes, more than an int holds", fn,
                             incount, type_name(datatype).c_str(), bytes);
    *size = static_cast<int>(bytes);
    return MPI_SUCCESS;
}

PLEXUS_MPI_ALIAS(Get_address)
int PMPI_Get_address(const void *location, MPI_Aint *address) {
    constexpr const char *fn = "MPI_Get_address";
    running(fn);
    if (int rc = check_pointer(fn, MPI_COMM_WORLD, address, "address")) return rc;
    *address = static_cast<MPI_Aint>(reinterpret_cast<uintptr_t>(location));
    return MPI_SUCCESS;
}

}  // extern "C"
