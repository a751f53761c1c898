// Attribute keys and the attributes cached on communicators (and their MPI-1 names).
#include "mpi/api/profiling.h"
#include "mpi/arg_check.h"
#include "mpi/attributes/attribute_cache.h"
#include "mpi/attributes/keyvals.h"
#include "mpi/attributes/predefined_attributes.h"
#include "mpi/mpi_state.h"

using namespace plexus::mpi;

namespace {

// keyval names a user key this call may use: MPI_SUCCESS or the reported MPI_ERR_KEYVAL. Freed
// keys are refused where new attributes would be made (for_new), found otherwise (their
// attributes still exist until deleted).
int check_user_keyval(const char *fn, const Comm *comm, int keyval, bool for_new) {
    if (keyval_predefined(keyval))
        return report_errorf(comm, MPI_ERR_KEYVAL, "%s: keyval %s (%d) is predefined and read-only", fn,
                             predefined_keyval_name(keyval), keyval);
    if (keyval == MPI_KEYVAL_INVALID)
        return report_errorf(comm, MPI_ERR_KEYVAL, "%s: invalid keyval: MPI_KEYVAL_INVALID", fn);
    const Keyval *k = keyvals().find(keyval);
    if (!k)
        return report_errorf(comm, MPI_ERR_KEYVAL,
                             "%s: invalid keyval %d: not a key MPI_Comm_create_keyval made (or freed, with no "
                             "attribute left)",
                             fn, keyval);
    if (for_new && k->freed)
        return report_errorf(comm, MPI_ERR_KEYVAL, "%s: keyval %d was freed (MPI_Comm_free_keyval)", fn, keyval);
    return MPI_SUCCESS;
}

// A user callback failed: its code goes to the communicator's handler and is returned as is.
int callback_failed(const char *fn, const Comm *comm, int keyval, int code) {
    return report_code(comm, code,
                       std::string(fn) + ": the delete callback of keyval " + std::to_string(keyval) + " on " +
                           comm_name(comm) + " returned " + std::to_string(code));
}

}  // namespace

extern "C" {

PLEXUS_MPI_ALIAS(Comm_create_keyval)
int PMPI_Comm_create_keyval(MPI_Comm_copy_attr_function *comm_copy_attr_fn,
                            MPI_Comm_delete_attr_function *comm_delete_attr_fn, int *comm_keyval, void *extra_state) {
    constexpr const char *fn = "MPI_Comm_create_keyval";
    running(fn);
    if (int rc = check_pointer(fn, MPI_COMM_WORLD, comm_keyval, "comm_keyval")) return rc;
    const int keyval = keyvals().create(comm_copy_attr_fn, comm_delete_attr_fn, extra_state);
    if (keyval == MPI_KEYVAL_INVALID)
        return report_errorf(MPI_COMM_WORLD, MPI_ERR_OTHER, "%s: no keyval left (keys are never reused)", fn);
    *comm_keyval = keyval;
    return MPI_SUCCESS;
}

PLEXUS_MPI_ALIAS(Comm_free_keyval)
int PMPI_Comm_free_keyval(int *comm_keyval) {
    constexpr const char *fn = "MPI_Comm_free_keyval";
    running(fn);
    if (int rc = check_pointer(fn, MPI_COMM_WORLD, comm_keyval, "comm_keyval")) return rc;
    if (int rc = check_user_keyval(fn, MPI_COMM_WORLD, *comm_keyval, true)) return rc;
    keyvals().free_handle(*comm_keyval);  // the key itself stays while attributes use it
    *comm_keyval = MPI_KEYVAL_INVALID;
    return MPI_SUCCESS;
}

PLEXUS_MPI_ALIAS(Comm_set_attr)
int PMPI_Comm_set_attr(MPI_Comm comm, int comm_keyval, void *attribute_val) {
    constexpr const char *fn = "MPI_Comm_set_attr";
    running(fn);
    if (int rc = check_comm(fn, comm)) return rc;
    if (int rc = check_user_keyval(fn, comm, comm_keyval, true)) return rc;
    if (int rc = attribute_set(comm, comm_keyval, attribute_val)) return callback_failed(fn, comm, comm_keyval, rc);
    return MPI_SUCCESS;
}

// attribute_val is really a void **: it receives the value that was set (for the predefined
// keys, a pointer to an int).
PLEXUS_MPI_ALIAS(Comm_get_attr)
int PMPI_Comm_get_attr(MPI_Comm comm, int comm_keyval, void *attribute_val, int *flag) {
    constexpr const char *fn = "MPI_Comm_get_attr";
    running(fn);
    if (int rc = check_comm(fn, comm)) return rc;
    if (int rc = check_pointer(fn, comm, attribute_val, "attribute_val")) return rc;
    if (int rc = check_pointer(fn, comm, flag, "flag")) return rc;
    void **out = static_cast<void **>(attribute_val);
    if (keyval_predefined(comm_keyval)) {
        const int *value = predefined_attribute(comm_keyval);
        *flag = value != nullptr;
        if (value) *out = const_cast<int *>(value);
        return MPI_SUCCESS;
    }
    if (int rc = check_user_keyval(fn, comm, comm_keyval, false)) return rc;
    *flag = attribute_get(comm, comm_keyval, out);
    return MPI_SUCCESS;
}

PLEXUS_MPI_ALIAS(Comm_delete_attr)
int PMPI_Comm_delete_attr(MPI_Comm comm, int comm_keyval) {
    constexpr const char *fn = "MPI_Comm_delete_attr";
    running(fn);
    if (int rc = check_comm(fn, comm)) return rc;
    if (int rc = check_user_keyval(fn, comm, comm_keyval, false)) return rc;
    const int rc = attribute_delete(comm, comm_keyval);
    if (rc == -1)
        return report_errorf(comm, MPI_ERR_KEYVAL, "%s: keyval %d has no attribute on %s", fn, comm_keyval,
                             comm_name(comm).c_str());
    if (rc != MPI_SUCCESS) return callback_failed(fn, comm, comm_keyval, rc);
    return MPI_SUCCESS;
}

// The MPI-1 names (deprecated since MPI-2.0): the same functions.
PLEXUS_MPI_ALIAS(Keyval_create)
int PMPI_Keyval_create(MPI_Copy_function *copy_fn, MPI_Delete_function *delete_fn, int *keyval, void *extra_state) {
    return PMPI_Comm_create_keyval(copy_fn, delete_fn, keyval, extra_state);
}

PLEXUS_MPI_ALIAS(Keyval_free)
int PMPI_Keyval_free(int *keyval) { return PMPI_Comm_free_keyval(keyval); }

PLEXUS_MPI_ALIAS(Attr_put)
int PMPI_Attr_put(MPI_Comm comm, int keyval, void *attribute_val) { return PMPI_Comm_set_attr(comm, keyval, attribute_val); }

PLEXUS_MPI_ALIAS(Attr_get)
int PMPI_Attr_get(MPI_Comm comm, int keyval, void *attribute_val, int *flag) {
    return PMPI_Comm_get_attr(comm, keyval, attribute_val, flag);
}

PLEXUS_MPI_ALIAS(Attr_delete)
int PMPI_Attr_delete(MPI_Comm comm, int keyval) { return PMPI_Comm_delete_attr(comm, keyval); }

}  // extern "C"
