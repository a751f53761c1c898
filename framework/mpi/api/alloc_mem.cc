// MPI_Alloc_mem and MPI_Free_mem (MPI-2.2 8.2): memory from shareable_memory, which one-sided
// windows can share with peers. Errors are reported on MPI_COMM_WORLD (no communicator is
// involved).
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <string>

#include "mpi/api/profiling.h"
#include "mpi/arg_check.h"
#include "mpi/info/info.h"
#include "mpi/mpi_state.h"
#include "mpi/shareable_memory.h"

using namespace plexus::mpi;

namespace {

// The info key Open MPI 5 and MPI-4.1 give for the alignment of the memory.
constexpr const char *kAlignmentKey = "mpi_minimum_memory_alignment";
constexpr unsigned long kMaxAlignment = 1ul << 30;

// The alignment info asks for (1 when it does not); MPI_SUCCESS or the reported error.
int requested_alignment(const char *fn, const Info *info, size_t *alignment) {
    *alignment = 1;
    const auto value = info_lookup(info, kAlignmentKey);
    if (!value) return MPI_SUCCESS;
    const std::string text(*value);
    char *end = nullptr;
    errno = 0;
    const unsigned long n = std::strtoul(text.c_str(), &end, 10);
    if (errno || text.empty() || *end || text[0] == '-' || n == 0 || (n & (n - 1)) || n > kMaxAlignment)
        return report_errorf(MPI_COMM_WORLD, MPI_ERR_INFO_VALUE,
                             "%s: invalid value \"%s\" for info key %s: a power of two from 1 to %lu", fn,
                             text.c_str(), kAlignmentKey, kMaxAlignment);
    *alignment = n;
    return MPI_SUCCESS;
}

}  // namespace

extern "C" {

PLEXUS_MPI_ALIAS(Alloc_mem)
int PMPI_Alloc_mem(MPI_Aint size, MPI_Info info, void *baseptr) {
    constexpr const char *fn = "MPI_Alloc_mem";
    running(fn);
    if (size < 0) return report_errorf(MPI_COMM_WORLD, MPI_ERR_ARG, "%s: invalid size %td: must be >= 0", fn, size);
    if (info != MPI_INFO_NULL && !info_valid(info))
        return report_errorf(MPI_COMM_WORLD, MPI_ERR_INFO,
                             "%s: invalid info %p: not an info object (freed, or never made by MPI)", fn,
                             static_cast<const void *>(info));
    if (int rc = check_pointer(fn, MPI_COMM_WORLD, baseptr, "baseptr")) return rc;
    size_t alignment;
    if (int rc = requested_alignment(fn, info, &alignment)) return rc;
    std::string why;
    void *p = shareable_memory().allocate(static_cast<size_t>(size), alignment, &why);
    if (!p)
        return report_errorf(MPI_COMM_WORLD, MPI_ERR_NO_MEM, "%s: cannot allocate %td bytes: %s", fn, size,
                             why.c_str());
    // baseptr is a void ** passed as void * (the standard's signature); memcpy stores through it
    // without the aliasing questions of a cast.
    std::memcpy(baseptr, &p, sizeof p);
    return MPI_SUCCESS;
}

// NULL is accepted and does nothing, as Open MPI and MPICH do (MPI-2.2 is silent on it).
PLEXUS_MPI_ALIAS(Free_mem)
int PMPI_Free_mem(void *base) {
    constexpr const char *fn = "MPI_Free_mem";
    running(fn);
    if (!base) return MPI_SUCCESS;
    std::string why;
    if (shareable_memory().release(base, &why) != ShareableMemory::Release::Freed)
        return report_errorf(MPI_COMM_WORLD, MPI_ERR_ARG, "%s: invalid base %p: %s", fn, base, why.c_str());
    return MPI_SUCCESS;
}

}  // extern "C"
