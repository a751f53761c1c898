// MPI_Info: create, set, get, delete, count and walk the keys, dup, free. Errors are reported on
// MPI_COMM_WORLD (no communicator is involved).
#include <cstring>

#include "mpi/api/profiling.h"
#include "mpi/arg_check.h"
#include "mpi/info/info.h"
#include "mpi/mpi_state.h"

using namespace plexus::mpi;

namespace {

int check_info(const char *fn, const Info *info) {
    if (info_valid(info)) return MPI_SUCCESS;
    if (!info) return report_errorf(MPI_COMM_WORLD, MPI_ERR_INFO, "%s: invalid info: MPI_INFO_NULL", fn);
    return report_errorf(MPI_COMM_WORLD, MPI_ERR_INFO, "%s: invalid info %p: not an info object (freed, or never made by MPI)",
                         fn, static_cast<const void *>(info));
}

int check_key(const char *fn, const char *key) {
    if (!key) return report_errorf(MPI_COMM_WORLD, MPI_ERR_INFO_KEY, "%s: invalid key: NULL", fn);
    const size_t n = std::strlen(key);
    if (const char *problem = info_key_problem({key, n}))
        return report_errorf(MPI_COMM_WORLD, MPI_ERR_INFO_KEY, "%s: invalid key \"%.40s%s\" (%zu characters): %s", fn,
                             key, n > 40 ? "..." : "", n, problem);
    return MPI_SUCCESS;
}

// Copies s with its NUL into out, which holds at most max characters and the NUL.
void copy_out(const std::string &s, size_t max, char *out) {
    const size_t n = std::min(s.size(), max);
    std::memcpy(out, s.data(), n);
    out[n] = '\0';
}

}  // namespace

extern "C" {

PLEXUS_MPI_ALIAS(Info_create)
int PMPI_Info_create(MPI_Info *info) {
    constexpr const char *fn = "MPI_Info_create";
    running(fn);
    if (int rc = check_pointer(fn, MPI_COMM_WORLD, info, "info")) return rc;
    *info = new Info;
    return MPI_SUCCESS;
}

PLEXUS_MPI_ALIAS(Info_set)
int PMPI_Info_set(MPI_Info info, const char *key, const char *value) {
    constexpr const char *fn = "MPI_Info_set";
    running(fn);
    if (int rc = check_info(fn, info)) return rc;
    if (int rc = check_key(fn, key)) return rc;
    if (!value) return report_errorf(MPI_COMM_WORLD, MPI_ERR_INFO_VALUE, "%s: invalid value for key \"%s\": NULL", fn, key);
    const size_t n = std::strlen(value);
    if (const char *problem = info_value_problem({value, n}))
        return report_errorf(MPI_COMM_WORLD, MPI_ERR_INFO_VALUE, "%s: invalid value for key \"%s\" (%zu characters): %s",
                             fn, key, n, problem);
    info->set(key, {value, n});
    return MPI_SUCCESS;
}

// valuelen: the characters value has room for, without the NUL; a longer value is cut there.
PLEXUS_MPI_ALIAS(Info_get)
int PMPI_Info_get(MPI_Info info, const char *key, int valuelen, char *value, int *flag) {
    constexpr const char *fn = "MPI_Info_get";
    running(fn);
    if (int rc = check_info(fn, info)) return rc;
    if (int rc = check_key(fn, key)) return rc;
    if (valuelen < 0)
        return report_errorf(MPI_COMM_WORLD, MPI_ERR_ARG, "%s: invalid valuelen %d: must be >= 0", fn, valuelen);
    if (int rc = check_pointer(fn, MPI_COMM_WORLD, value, "value")) return rc;
    if (int rc = check_pointer(fn, MPI_COMM_WORLD, flag, "flag")) return rc;
    const std::string *v = info->find(key);
    *flag = v != nullptr;
    if (v) copy_out(*v, static_cast<size_t>(valuelen), value);
    return MPI_SUCCESS;
}

PLEXUS_MPI_ALIAS(Info_get_valuelen)
int PMPI_Info_get_valuelen(MPI_Info info, const char *key, int *valuelen, int *flag) {
    constexpr const char *fn = "MPI_Info_get_valuelen";
    running(fn);
    if (int rc = check_info(fn, info)) return rc;
    if (int rc = check_key(fn, key)) return rc;
    if (int rc = check_pointer(fn, MPI_COMM_WORLD, valuelen, "valuelen")) return rc;
    if (int rc = check_pointer(fn, MPI_COMM_WORLD, flag, "flag")) return rc;
    const std::string *v = info->find(key);
    *flag = v != nullptr;
    if (v) *valuelen = static_cast<int>(v->size());
    return MPI_SUCCESS;
}

PLEXUS_MPI_ALIAS(Info_get_nkeys)
int PMPI_Info_get_nkeys(MPI_Info info, int *nkeys) {
    constexpr const char *fn = "MPI_Info_get_nkeys";
    running(fn);
    if (int rc = check_info(fn, info)) return rc;
    if (int rc = check_pointer(fn, MPI_COMM_WORLD, nkeys, "nkeys")) return rc;
    *nkeys = static_cast<int>(info->size());
    return MPI_SUCCESS;
}

// key has room for MPI_MAX_INFO_KEY characters and the NUL.
PLEXUS_MPI_ALIAS(Info_get_nthkey)
int PMPI_Info_get_nthkey(MPI_Info info, int n, char *key) {
    constexpr const char *fn = "MPI_Info_get_nthkey";
    running(fn);
    if (int rc = check_info(fn, info)) return rc;
    if (n < 0 || static_cast<size_t>(n) >= info->size())
        return report_errorf(MPI_COMM_WORLD, MPI_ERR_ARG, "%s: invalid n %d: the info has %zu keys (valid: 0..%zd)", fn,
                             n, info->size(), static_cast<ssize_t>(info->size()) - 1);
    if (int rc = check_pointer(fn, MPI_COMM_WORLD, key, "key")) return rc;
    copy_out(info->key_at(static_cast<size_t>(n)), MPI_MAX_INFO_KEY, key);
    return MPI_SUCCESS;
}

PLEXUS_MPI_ALIAS(Info_delete)
int PMPI_Info_delete(MPI_Info info, const char *key) {
    constexpr const char *fn = "MPI_Info_delete";
    running(fn);
    if (int rc = check_info(fn, info)) return rc;
    if (int rc = check_key(fn, key)) return rc;
    if (!info->erase(key))
        return report_errorf(MPI_COMM_WORLD, MPI_ERR_INFO_NOKEY, "%s: key \"%s\" is not set in this info", fn, key);
    return MPI_SUCCESS;
}

PLEXUS_MPI_ALIAS(Info_dup)
int PMPI_Info_dup(MPI_Info info, MPI_Info *newinfo) {
    constexpr const char *fn = "MPI_Info_dup";
    running(fn);
    if (int rc = check_info(fn, info)) return rc;
    if (int rc = check_pointer(fn, MPI_COMM_WORLD, newinfo, "newinfo")) return rc;
    *newinfo = new Info(*info);
    return MPI_SUCCESS;
}

PLEXUS_MPI_ALIAS(Info_free)
int PMPI_Info_free(MPI_Info *info) {
    constexpr const char *fn = "MPI_Info_free";
    running(fn);
    if (int rc = check_pointer(fn, MPI_COMM_WORLD, info, "info")) return rc;
    if (int rc = check_info(fn, *info)) return rc;
    (*info)->magic = 0;  // a stale handle is then refused, not used
    delete *info;
    *info = MPI_INFO_NULL;
    return MPI_SUCCESS;
}

}  // extern "C"
