// MPI_Pack_external, MPI_Unpack_external, MPI_Pack_external_size: the data of a type in the
// "external32" representation (datatype/external32.h), the only one MPI-2.2 defines. The data is
// packed natively first, then converted run by run.
#include <cstring>
#include <vector>

#include "mpi/api/profiling.h"
#include "mpi/arg_check.h"
#include "mpi/datatype/external32.h"
#include "mpi/mpi_state.h"

using namespace plexus::mpi;

namespace {

int check_datarep(const char *fn, const char *datarep) {
    if (!datarep) return report_errorf(MPI_COMM_WORLD, MPI_ERR_ARG, "%s: datarep is NULL", fn);
    if (std::strcmp(datarep, "external32") != 0)
        return report_errorf(MPI_COMM_WORLD, MPI_ERR_ARG,
                             "%s: invalid datarep \"%.64s\": \"external32\" is the only representation", fn, datarep);
    return MPI_SUCCESS;
}

// The arguments every call has: representation, count, a committed type this machine converts.
int check_common(const char *fn, const char *datarep, int count, const char *count_name, const Datatype *type) {
    if (int rc = check_datarep(fn, datarep)) return rc;
    if (count < 0)
        return report_errorf(MPI_COMM_WORLD, MPI_ERR_COUNT, "%s: invalid %s %d: counts are 0 or more", fn, count_name,
                             count);
    if (int rc = check_datatype(fn, MPI_COMM_WORLD, type)) return rc;
    if (!external32_long_double_supported()) {
        for (const BasicRun &r : basic_runs(*type))
            if (r.type == MPI_LONG_DOUBLE || r.type == MPI_C_LONG_DOUBLE_COMPLEX || r.type == MPI_LONG_DOUBLE_INT)
                return report_errorf(MPI_COMM_WORLD, MPI_ERR_TYPE,
                                     "%s: %s holds long double, whose format here has no external32 conversion", fn,
                                     type_name(type).c_str());
    }
    return MPI_SUCCESS;
}

// A buffer position: 0..size (MPI_ERR_ARG).
int check_position(const char *fn, const MPI_Aint *position, MPI_Aint size, const char *size_name) {
    if (int rc = check_pointer(fn, MPI_COMM_WORLD, position, "position")) return rc;
    if (size < 0)
        return report_errorf(MPI_COMM_WORLD, MPI_ERR_ARG, "%s: invalid %s %td: sizes are 0 or more", fn, size_name,
                             size);
    if (*position < 0 || *position > size)
        return report_errorf(MPI_COMM_WORLD, MPI_ERR_ARG, "%s: invalid *position %td: positions are 0..%s (%td)", fn,
                             *position, size_name, size);
    return MPI_SUCCESS;
}

int check_buffer(const char *fn, const void *buf, int count, const Datatype *type, const char *name) {
    if (buf || count == 0 || !type->predefined) return MPI_SUCCESS;  // MPI_BOTTOM with absolute addresses
    return report_errorf(MPI_COMM_WORLD, MPI_ERR_BUFFER, "%s: invalid %s: NULL with count %d of %s", fn, name, count,
                         type_name(type).c_str());
}

}  // namespace

extern "C" {

PLEXUS_MPI_ALIAS(Pack_external)
int PMPI_Pack_external(const char datarep[], const void *inbuf, int incount, MPI_Datatype datatype, void *outbuf,
                       MPI_Aint outsize, MPI_Aint *position) {
    constexpr const char *fn = "MPI_Pack_external";
    running(fn);
    if (int rc = check_common(fn, datarep, incount, "incount", datatype)) return rc;
    if (int rc = check_buffer(fn, inbuf, incount, datatype, "inbuf")) return rc;
    if (int rc = check_position(fn, position, outsize, "outsize")) return rc;
    const std::vector<BasicRun> runs = basic_runs(*datatype);
    const size_t bytes = external32_bytes(runs, size_t(incount));
    if (bytes > size_t(outsize - *position))
        return report_errorf(MPI_COMM_WORLD, MPI_ERR_TRUNCATE,
                             "%s: %d x %s is %zu bytes in external32; outbuf has %td from position %td (outsize %td)",
                             fn, incount, type_name(datatype).c_str(), bytes, outsize - *position, *position, outsize);
    if (bytes == 0) return MPI_SUCCESS;
    if (int rc = check_pointer(fn, MPI_COMM_WORLD, outbuf, "outbuf")) return rc;
    std::vector<char> native(packed_bytes(datatype, incount));
    pack(*datatype, inbuf, incount, native.data());
    const Datatype *bad = nullptr;
    if (!to_external32(runs, size_t(incount), native.data(), static_cast<char *>(outbuf) + *position, &bad))
        return report_errorf(MPI_COMM_WORLD, MPI_ERR_CONVERSION,
                             "%s: a %s value of %s does not fit its %zu bytes in external32", fn, type_name(bad).c_str(),
                             type_name(datatype).c_str(), external32_element_size(*bad));
    *position += MPI_Aint(bytes);
    return MPI_SUCCESS;
}

PLEXUS_MPI_ALIAS(Unpack_external)
int PMPI_Unpack_external(const char datarep[], const void *inbuf, MPI_Aint insize, MPI_Aint *position, void *outbuf,
                         int outcount, MPI_Datatype datatype) {
    constexpr const char *fn = "MPI_Unpack_external";
    running(fn);
    if (int rc = check_common(fn, datarep, outcount, "outcount", datatype)) return rc;
    if (int rc = check_buffer(fn, outbuf, outcount, datatype, "outbuf")) return rc;
    if (int rc = check_position(fn, position, insize, "insize")) return rc;
    const std::vector<BasicRun> runs = basic_runs(*datatype);
    const size_t bytes = external32_bytes(runs, size_t(outcount));
    if (bytes > size_t(insize - *position))
        return report_errorf(MPI_COMM_WORLD, MPI_ERR_TRUNCATE,
                             "%s: %d x %s needs %zu bytes of external32; inbuf has %td from position %td (insize %td)",
                             fn, outcount, type_name(datatype).c_str(), bytes, insize - *position, *position, insize);
    if (bytes == 0) return MPI_SUCCESS;
    if (int rc = check_pointer(fn, MPI_COMM_WORLD, inbuf, "inbuf")) return rc;
    std::vector<char> native(packed_bytes(datatype, outcount));
    from_external32(runs, size_t(outcount), static_cast<const char *>(inbuf) + *position, native.data());
    unpack_range(*datatype, outbuf, size_t(outcount), 0, native.size(), native.data());
    *position += MPI_Aint(bytes);
    return MPI_SUCCESS;
}

PLEXUS_MPI_ALIAS(Pack_external_size)
int PMPI_Pack_external_size(const char datarep[], int incount, MPI_Datatype datatype, MPI_Aint *size) {
    constexpr const char *fn = "MPI_Pack_external_size";
    running(fn);
    if (int rc = check_common(fn, datarep, incount, "incount", datatype)) return rc;
    if (int rc = check_pointer(fn, MPI_COMM_WORLD, size, "size")) return rc;
    *size = MPI_Aint(external32_bytes(basic_runs(*datatype), size_t(incount)));
    return MPI_SUCCESS;
}

}  // extern "C"
