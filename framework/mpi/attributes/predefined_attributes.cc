// Where the predefined attributes come from: the PML's tag range, the launcher's job facts, and
// the error codes in use.
#include "mpi/attributes/predefined_attributes.h"

#include "mpi/arg_check.h"
#include "mpi/attributes/keyvals.h"
#include "mpi/error_codes.h"
#include "runtime/runtime.h"

namespace plexus::mpi {
namespace {

// The values live here (MPI hands out their addresses); refreshed on every query, since the
// job facts arrive with MPI_Init and MPI_LASTUSEDCODE grows.
int g_values[kLastPredefinedKeyval + 1];

const runtime::JobInfo *job() {
    const runtime::Runtime *rt = runtime::Runtime::current();
    return rt ? &rt->job() : nullptr;
}

}  // namespace

const int *predefined_attribute(int keyval) {
    int &value = g_values[keyval_predefined(keyval) ? keyval : 0];
    switch (keyval) {
    case MPI_TAG_UB:
        value = kTagUpperBound;
        break;
    case MPI_HOST:
        value = MPI_PROC_NULL;  // no process is the host
        break;
    case MPI_IO:
        value = MPI_ANY_SOURCE;  // every process can do I/O
        break;
    case MPI_WTIME_IS_GLOBAL:
        value = 0;  // MPI_Wtime reads each node's own clock; nothing synchronises them
        break;
    case MPI_UNIVERSE_SIZE: {
        const runtime::JobInfo *j = job();
        if (!j || !j->universe_size) return nullptr;
        value = static_cast<int>(*j->universe_size);
        break;
    }
    case MPI_APPNUM: {
        const runtime::JobInfo *j = job();
        if (!j) return nullptr;
        value = static_cast<int>(j->appnum);
        break;
    }
    case MPI_LASTUSEDCODE:
        value = user_errors().last_used();
        break;
    default:
        return nullptr;
    }
    return &value;
}

const char *predefined_keyval_name(int keyval) {
    static constexpr const char *kNames[] = {nullptr,           "MPI_TAG_UB",        "MPI_HOST",
                                             "MPI_IO",          "MPI_WTIME_IS_GLOBAL", "MPI_UNIVERSE_SIZE",
                                             "MPI_APPNUM",      "MPI_LASTUSEDCODE"};
    return keyval_predefined(keyval) ? kNames[keyval] : nullptr;
}

}  // namespace plexus::mpi
