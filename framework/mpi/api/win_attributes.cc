// Attribute keys for windows and the attributes cached on them (MPI-2.2 6.7.3):
// MPI_Win_create_keyval, MPI_Win_free_keyval, MPI_Win_set_attr, MPI_Win_get_attr,
// MPI_Win_delete_attr, and the predefined MPI_WIN_BASE, MPI_WIN_SIZE, MPI_WIN_DISP_UNIT (read
// only). The rules are the communicators' (attributes/attribute_cache.h); delete callbacks run
// on MPI_Win_free (osc/osc_select.h). Windows are never duplicated, so copy callbacks never run.
#include <string>

#include "mpi/api/profiling.h"
#include "mpi/arg_check.h"
#include "mpi/attributes/attribute_cache.h"
#include "mpi/attributes/keyvals.h"
#include "mpi/mpi_state.h"
#include "mpi/osc/win_checks.h"
#include "mpi/osc/win_error.h"

using namespace plexus::mpi;

namespace {

AttributeHost host_of(Win *win) { return {AttributeKind::Win, win, &win->attributes}; }

// keyval names a live window key: MPI_SUCCESS or the reported MPI_ERR_KEYVAL. Freed keys are
// refused where new attributes would be made (for_new), found otherwise.
int check_win_keyval(const char *fn, const Win *win, int keyval, bool for_new) {
    if (keyval == MPI_KEYVAL_INVALID)
        return report_win_errorf(win, MPI_ERR_KEYVAL, "%s: invalid keyval: MPI_KEYVAL_INVALID", fn);
    const Keyval *k = keyvals().find(keyval, AttributeKind::Win);
    if (!k) {
        if (keyval_predefined(keyval))
            return report_win_errorf(win, MPI_ERR_KEYVAL,
                                     "%s: keyval %d is a predefined communicator key; windows take keys of "
                                     "MPI_Win_create_keyval and MPI_WIN_BASE, MPI_WIN_SIZE, MPI_WIN_DISP_UNIT",
                                     fn, keyval);
        if (const Keyval *other = keyvals().find_any(keyval))
            return report_win_errorf(win, MPI_ERR_KEYVAL,
                                     "%s: keyval %d is a %s key (%s); windows take keys of MPI_Win_create_keyval", fn,
                                     keyval, attribute_kind_name(other->kind), attribute_keyval_maker(other->kind));
        return report_win_errorf(win, MPI_ERR_KEYVAL,
                                 "%s: invalid keyval %d: not a key MPI_Win_create_keyval made (or freed, with no "
                                 "attribute left)",
                                 fn, keyval);
    }
    if (for_new && k->freed)
        return report_win_errorf(win, MPI_ERR_KEYVAL, "%s: keyval %d was freed (MPI_Win_free_keyval)", fn, keyval);
    return MPI_SUCCESS;
}

int read_only(const char *fn, const Win *win, int keyval) {
    return report_win_errorf(win, MPI_ERR_KEYVAL,
                             "%s: keyval %d is predefined (MPI_WIN_BASE, MPI_WIN_SIZE or MPI_WIN_DISP_UNIT): it cannot "
                             "be set or deleted",
                             fn, keyval);
}

// A user callback failed: its code goes to the window's handler and is returned as is.
int callback_failed(const char *fn, const Win *win, int keyval, int code) {
    return report_win_code(win, code,
                           std::string(fn) + ": the delete callback of keyval " + std::to_string(keyval) + " on " +
                               win_name(win) + " returned " + std::to_string(code));
}

// The predefined attributes: the base itself, and pointers to the size and unit (MPI-2.2 6.7.3).
void *predefined_value(Win *win, int keyval) {
    switch (keyval) {
        case MPI_WIN_BASE: return win->base;
        case MPI_WIN_SIZE: return &win->size;
        default: return &win->disp_unit;
    }
}

}  // namespace

extern "C" {

PLEXUS_MPI_ALIAS(Win_create_keyval)
int PMPI_Win_create_keyval(MPI_Win_copy_attr_function *win_copy_attr_fn,
                           MPI_Win_delete_attr_function *win_delete_attr_fn, int *win_keyval, void *extra_state) {
    constexpr const char *fn = "MPI_Win_create_keyval";
    running(fn);
    if (int rc = check_pointer(fn, MPI_COMM_WORLD, win_keyval, "win_keyval")) return rc;
    const int keyval = keyvals().create<MPI_Win>(AttributeKind::Win, win_copy_attr_fn, win_delete_attr_fn, extra_state);
    if (keyval == MPI_KEYVAL_INVALID)
        return report_errorf(MPI_COMM_WORLD, MPI_ERR_OTHER, "%s: no keyval left (keys are never reused)", fn);
    *win_keyval = keyval;
    return MPI_SUCCESS;
}

PLEXUS_MPI_ALIAS(Win_free_keyval)
int PMPI_Win_free_keyval(int *win_keyval) {
    constexpr const char *fn = "MPI_Win_free_keyval";
    running(fn);
    if (int rc = check_pointer(fn, MPI_COMM_WORLD, win_keyval, "win_keyval")) return rc;
    if (win_keyval_predefined(*win_keyval)) return read_only(fn, nullptr, *win_keyval);
    if (int rc = check_win_keyval(fn, nullptr, *win_keyval, true)) return rc;
    keyvals().free_handle(*win_keyval);  // the key itself stays while attributes use it
    *win_keyval = MPI_KEYVAL_INVALID;
    return MPI_SUCCESS;
}

PLEXUS_MPI_ALIAS(Win_set_attr)
int PMPI_Win_set_attr(MPI_Win win, int win_keyval, void *attribute_val) {
    constexpr const char *fn = "MPI_Win_set_attr";
    running(fn);
    if (int rc = osc::check_win(fn, win)) return rc;
    if (win_keyval_predefined(win_keyval)) return read_only(fn, win, win_keyval);
    if (int rc = check_win_keyval(fn, win, win_keyval, true)) return rc;
    if (int rc = attribute_set(host_of(win), win_keyval, attribute_val)) return callback_failed(fn, win, win_keyval, rc);
    return MPI_SUCCESS;
}

// attribute_val is really a void **: it receives the value that was set.
PLEXUS_MPI_ALIAS(Win_get_attr)
int PMPI_Win_get_attr(MPI_Win win, int win_keyval, void *attribute_val, int *flag) {
    constexpr const char *fn = "MPI_Win_get_attr";
    running(fn);
    if (int rc = osc::check_win(fn, win)) return rc;
    if (!attribute_val) return report_win_errorf(win, MPI_ERR_ARG, "%s: attribute_val is NULL", fn);
    if (!flag) return report_win_errorf(win, MPI_ERR_ARG, "%s: flag is NULL", fn);
    if (win_keyval_predefined(win_keyval)) {
        *static_cast<void **>(attribute_val) = predefined_value(win, win_keyval);
        *flag = 1;
        return MPI_SUCCESS;
    }
    if (int rc = check_win_keyval(fn, win, win_keyval, false)) return rc;
    *flag = attribute_get(win->attributes, win_keyval, static_cast<void **>(attribute_val));
    return MPI_SUCCESS;
}

PLEXUS_MPI_ALIAS(Win_delete_attr)
int PMPI_Win_delete_attr(MPI_Win win, int win_keyval) {
    constexpr const char *fn = "MPI_Win_delete_attr";
    running(fn);
    if (int rc = osc::check_win(fn, win)) return rc;
    if (win_keyval_predefined(win_keyval)) return read_only(fn, win, win_keyval);
    if (int rc = check_win_keyval(fn, win, win_keyval, false)) return rc;
    const int rc = attribute_delete(host_of(win), win_keyval);
    if (rc == -1)
        return report_win_errorf(win, MPI_ERR_KEYVAL, "%s: keyval %d has no attribute on %s", fn, win_keyval,
                                 win_name(win).c_str());
    if (rc != MPI_SUCCESS) return callback_failed(fn, win, win_keyval, rc);
    return MPI_SUCCESS;
}

}  // extern "C"
