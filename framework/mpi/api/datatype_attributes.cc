// Attribute keys for datatypes and the attributes cached on them: MPI_Type_create_keyval,
// MPI_Type_free_keyval, MPI_Type_set_attr, MPI_Type_get_attr, MPI_Type_delete_attr. The rules
// are the communicators' (attributes/attribute_cache.h): callbacks run once per value, a key
// freed twice or made for communicators is MPI_ERR_KEYVAL. Copy callbacks run on MPI_Type_dup,
// delete callbacks on MPI_Type_free (attributes/type_attributes.h).
#include <string>

#include "mpi/api/profiling.h"
#include "mpi/arg_check.h"
#include "mpi/attributes/keyvals.h"
#include "mpi/attributes/predefined_attributes.h"
#include "mpi/attributes/type_attributes.h"
#include "mpi/datatype/type_args.h"
#include "mpi/mpi_state.h"

using namespace plexus::mpi;

namespace {

// keyval names a live datatype key: MPI_SUCCESS or the reported MPI_ERR_KEYVAL. Freed keys are
// refused where new attributes would be made (for_new), found otherwise (their attributes
// still exist until deleted).
int check_type_keyval(const char *fn, int keyval, bool for_new) {
    if (keyval_predefined(keyval))
        return report_errorf(MPI_COMM_WORLD, MPI_ERR_KEYVAL,
                             "%s: keyval %s (%d) is a predefined communicator key; datatypes take keys of "
                             "MPI_Type_create_keyval",
                             fn, predefined_keyval_name(keyval), keyval);
    if (keyval == MPI_KEYVAL_INVALID)
        return report_errorf(MPI_COMM_WORLD, MPI_ERR_KEYVAL, "%s: invalid keyval: MPI_KEYVAL_INVALID", fn);
    const Keyval *k = keyvals().find(keyval, AttributeKind::Datatype);
    if (!k) {
        if (const Keyval *other = keyvals().find_any(keyval))
            return report_errorf(MPI_COMM_WORLD, MPI_ERR_KEYVAL,
                                 "%s: keyval %d is a %s key (%s); datatypes take keys of MPI_Type_create_keyval", fn,
                                 keyval, attribute_kind_name(other->kind), attribute_keyval_maker(other->kind));
        return report_errorf(MPI_COMM_WORLD, MPI_ERR_KEYVAL,
                             "%s: invalid keyval %d: not a key MPI_Type_create_keyval made (or freed, with no "
                             "attribute left)",
                             fn, keyval);
    }
    if (for_new && k->freed)
        return report_errorf(MPI_COMM_WORLD, MPI_ERR_KEYVAL, "%s: keyval %d was freed (MPI_Type_free_keyval)", fn,
                             keyval);
    return MPI_SUCCESS;
}

// A user callback failed: its code goes to MPI_COMM_WORLD's handler and is returned as is.
int callback_failed(const char *fn, const Datatype *type, int keyval, int code) {
    return report_code(MPI_COMM_WORLD, code,
                       std::string(fn) + ": the delete callback of keyval " + std::to_string(keyval) + " on " +
                           type_name(type) + " returned " + std::to_string(code));
}

}  // namespace

extern "C" {

PLEXUS_MPI_ALIAS(Type_create_keyval)
int PMPI_Type_create_keyval(MPI_Type_copy_attr_function *type_copy_attr_fn,
                            MPI_Type_delete_attr_function *type_delete_attr_fn, int *type_keyval, void *extra_state) {
    constexpr const char *fn = "MPI_Type_create_keyval";
    running(fn);
    if (int rc = check_pointer(fn, MPI_COMM_WORLD, type_keyval, "type_keyval")) return rc;
    const int keyval =
        keyvals().create<MPI_Datatype>(AttributeKind::Datatype, type_copy_attr_fn, type_delete_attr_fn, extra_state);
    if (keyval == MPI_KEYVAL_INVALID)
        return report_errorf(MPI_COMM_WORLD, MPI_ERR_OTHER, "%s: no keyval left (keys are never reused)", fn);
    *type_keyval = keyval;
    return MPI_SUCCESS;
}

PLEXUS_MPI_ALIAS(Type_free_keyval)
int PMPI_Type_free_keyval(int *type_keyval) {
    constexpr const char *fn = "MPI_Type_free_keyval";
    running(fn);
    if (int rc = check_pointer(fn, MPI_COMM_WORLD, type_keyval, "type_keyval")) return rc;
    if (int rc = check_type_keyval(fn, *type_keyval, true)) return rc;
    keyvals().free_handle(*type_keyval);  // the key itself stays while attributes use it
    *type_keyval = MPI_KEYVAL_INVALID;
    return MPI_SUCCESS;
}

PLEXUS_MPI_ALIAS(Type_set_attr)
int PMPI_Type_set_attr(MPI_Datatype datatype, int type_keyval, void *attribute_val) {
    constexpr const char *fn = "MPI_Type_set_attr";
    running(fn);
    if (int rc = check_type_arg(fn, datatype, "datatype")) return rc;
    if (int rc = check_type_keyval(fn, type_keyval, true)) return rc;
    if (int rc = attribute_set(attribute_host(datatype), type_keyval, attribute_val))
        return callback_failed(fn, datatype, type_keyval, rc);
    return MPI_SUCCESS;
}

// attribute_val is really a void **: it receives the value that was set.
PLEXUS_MPI_ALIAS(Type_get_attr)
int PMPI_Type_get_attr(MPI_Datatype datatype, int type_keyval, void *attribute_val, int *flag) {
    constexpr const char *fn = "MPI_Type_get_attr";
    running(fn);
    if (int rc = check_type_arg(fn, datatype, "datatype")) return rc;
    if (int rc = check_pointer(fn, MPI_COMM_WORLD, attribute_val, "attribute_val")) return rc;
    if (int rc = check_pointer(fn, MPI_COMM_WORLD, flag, "flag")) return rc;
    if (int rc = check_type_keyval(fn, type_keyval, false)) return rc;
    *flag = datatype->attributes && attribute_get(*datatype->attributes, type_keyval, static_cast<void **>(attribute_val));
    return MPI_SUCCESS;
}

PLEXUS_MPI_ALIAS(Type_delete_attr)
int PMPI_Type_delete_attr(MPI_Datatype datatype, int type_keyval) {
    constexpr const char *fn = "MPI_Type_delete_attr";
    running(fn);
    if (int rc = check_type_arg(fn, datatype, "datatype")) return rc;
    if (int rc = check_type_keyval(fn, type_keyval, false)) return rc;
    const int rc = datatype->attributes ? attribute_delete(attribute_host(datatype), type_keyval) : -1;
    if (rc == -1)
        return report_errorf(MPI_COMM_WORLD, MPI_ERR_KEYVAL, "%s: keyval %d has no attribute on %s", fn, type_keyval,
                             type_name(datatype).c_str());
    if (rc != MPI_SUCCESS) return callback_failed(fn, datatype, type_keyval, rc);
    return MPI_SUCCESS;
}

}  // extern "C"
