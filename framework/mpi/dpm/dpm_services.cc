// The services behind plexus_dpm_services_t. What a module could get wrong (a rank outside a
// group, a communicator of the wrong kind) is refused with an error class.
#include "mpi/dpm/dpm_services.h"

#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "base/output.h"
#include "mca/mca_core.h"
#include "mpi/coll/coll_handles.h"
#include "mpi/coll/coll_services.h"
#include "mpi/dpm/dpm.h"
#include "mpi/dpm/dpm_cards.h"
#include "mpi/dpm/dpm_intercomm.h"
#include "mpi/dpm/dpm_launch.h"
#include "mpi/mpi_state.h"
#include "runtime/runtime.h"

namespace plexus::mpi::dpm {
namespace {

using coll::object;

constexpr int kDefaultTimeoutMs = 60000;

runtime::Runtime *rt() { return runtime::Runtime::current(); }

// ---- the job manager's name service
int publish_as(const char *key, const char *value, int persistence) {
    if (!key || !*key || !value) return MPI_ERR_ARG;
    if (!rt()) return MPI_ERR_INTERN;
    const runtime::Persistence p = persistence == PLEXUS_DPM_PERSIST_PROC         ? runtime::Persistence::Process
                                   : persistence == PLEXUS_DPM_PERSIST_FIRST_READ ? runtime::Persistence::FirstRead
                                                                                  : runtime::Persistence::Default;
    runtime::Status s = rt()->publish(key, value, p);
    if (s) return MPI_SUCCESS;
    set_error(s.message);
    return s.code == PLEXUS_ERR_EXISTS ? MPI_ERR_SERVICE : MPI_ERR_OTHER;
}

int unpublish_as(const char *key) {
    if (!key || !*key) return MPI_ERR_ARG;
    if (!rt()) return MPI_ERR_INTERN;
    if (runtime::Status s = rt()->unpublish(key); !s) {
        set_error("withdrawing '" + std::string(key) + "': " + s.message);
        return MPI_ERR_OTHER;
    }
    return MPI_SUCCESS;
}

int lookup_wait(const char *key, int timeout_ms, char **value) {
    if (!key || !value) return MPI_ERR_ARG;
    if (!rt()) return MPI_ERR_INTERN;
    std::string v;
    runtime::Status s = rt()->lookup(key, true, timeout_ms, &v);
    if (!s) {
        set_error("waited " + std::to_string(timeout_ms) + " ms (dpm_base_connect_timeout) for '" + key +
                  "' to be published: " + s.message);
        return MPI_ERR_PORT;
    }
    *value = static_cast<char *>(std::malloc(v.size() + 1));
    if (!*value) return MPI_ERR_NO_MEM;
    std::memcpy(*value, v.c_str(), v.size() + 1);
    return MPI_SUCCESS;
}

// The user's service name inside a key (service_key), for messages.
std::string shown(const char *key) {
    const std::string k = key;
    const std::string prefix = service_key("");
    return k.compare(0, prefix.size(), prefix) == 0 ? "service name '" + k.substr(prefix.size()) + "'" : "'" + k + "'";
}

int publish(const char *service, const char *port) {
    if (!service || !port) return MPI_ERR_ARG;
    if (!rt()) return MPI_ERR_INTERN;
    runtime::Status s = rt()->publish(service, port, runtime::Persistence::Default);
    if (s) return MPI_SUCCESS;
    if (s.code == PLEXUS_ERR_EXISTS) {
        set_error(shown(service) + " is published already (unpublish it first)");
        return MPI_ERR_SERVICE;
    }
    set_error("publishing " + shown(service) + ": " + s.message);
    return MPI_ERR_OTHER;
}

int lookup(const char *service, char *port, size_t len) {
    if (!service || !port) return MPI_ERR_ARG;
    if (!rt()) return MPI_ERR_INTERN;
    std::string v;
    runtime::Status s = rt()->lookup(service, false, 0, &v);
    if (!s) {
        set_error("nothing is published under " + shown(service) +
                  (s.code == PLEXUS_ERR_NOT_FOUND ? "" : " (" + s.message + ")"));
        return MPI_ERR_NAME;
    }
    if (v.size() + 1 > len) {
        set_error("the value published under " + shown(service) + " is longer than " + std::to_string(len - 1) +
                  " characters");
        return MPI_ERR_NAME;
    }
    std::memcpy(port, v.c_str(), v.size() + 1);
    return MPI_SUCCESS;
}

int unpublish(const char *service) {
    if (!service) return MPI_ERR_ARG;
    if (!rt()) return MPI_ERR_INTERN;
    // The job manager forgets unknown names in silence; MPI wants MPI_ERR_SERVICE for them.
    std::string v;
    if (!rt()->lookup(service, false, 0, &v)) {
        set_error(shown(service) + " is not published");
        return MPI_ERR_SERVICE;
    }
    if (runtime::Status s = rt()->unpublish(service); !s) {
        set_error("unpublishing " + shown(service) + ": " + s.message);
        return MPI_ERR_SERVICE;
    }
    return MPI_SUCCESS;
}

// ---- jobs
int parent(plexus_dpm_proc_t *out) {
    if (!rt() || !rt()->job().parent) return 0;
    out->nspace = intern(rt()->job().parent->nspace);
    out->rank = rt()->job().parent->rank;
    return 1;
}

int nspace_size(const char *nspace, uint32_t *size) {
    if (!nspace || !size) return MPI_ERR_ARG;
    if (!rt()) return MPI_ERR_INTERN;
    if (rt()->job().nspace == nspace) return *size = rt()->job().size, MPI_SUCCESS;
    if (runtime::Status s = rt()->job_size_of(nspace, size); !s) {
        set_error(std::string("size of job ") + nspace + ": " + s.message);
        return MPI_ERR_OTHER;
    }
    return MPI_SUCCESS;
}

// ---- communicators
int context_id_of(plexus_coll_comm_t *comm, uint32_t at_least, uint32_t *cid) {
    Comm *c = object(comm);
    if (!c || c->inter || !cid) return MPI_ERR_COMM;
    return context_id(c, at_least, cid);
}

int intercomm_create_of(plexus_coll_comm_t *comm, const plexus_dpm_remote_group_t *remote,
                        plexus_coll_comm_t **intercomm) {
    Comm *c = object(comm);
    if (!c || c->inter) return MPI_ERR_COMM;
    // A module built before dpm services 1.4 passes the shorter description (no pair secret).
    if (!remote || remote->struct_size < PLEXUS_DPM_REMOTE_GROUP_SIZE_1_3 || !intercomm) return MPI_ERR_ARG;
    Comm *out = nullptr;
    if (int rc = intercomm_create(c, *remote, &out)) return rc;
    *intercomm = coll::handle(out);
    return MPI_SUCCESS;
}

int remote_proc(plexus_coll_comm_t *intercomm, int rank, plexus_dpm_proc_t *out) {
    const Comm *c = object(intercomm);
    if (!c || !c->inter) return MPI_ERR_COMM;
    return proc_name(c, rank, true, out);
}

int local_proc(plexus_coll_comm_t *comm, int rank, plexus_dpm_proc_t *out) {
    const Comm *c = object(comm);
    if (!c) return MPI_ERR_COMM;
    return proc_name(c, rank, false, out);
}

void set_error_fmt(const char *fmt, ...) {
    char text[MPI_MAX_ERROR_STRING];
    va_list ap;
    va_start(ap, fmt);
    std::vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    set_error(text);
}

int verbosity() { return mca::framework_verbosity("dpm"); }

plexus_coll_comm_t *comm_self() { return coll::handle(MPI_COMM_SELF); }

}  // namespace

std::string service_key(const char *service) { return std::string("mpi.service.") + service; }

int connect_timeout_ms() {
    mca::McaCore *core = mca::McaCore::current();
    const mca::Param *p = core ? core->params().find("dpm_base_connect_timeout") : nullptr;
    return p && p->value.i > 0 ? static_cast<int>(p->value.i) : kDefaultTimeoutMs;
}

const plexus_dpm_services_t &services() {
    static const plexus_dpm_services_t table = {
        sizeof(plexus_dpm_services_t),
        PLEXUS_DPM_SERVICES_MAJOR,
        PLEXUS_DPM_SERVICES_MINOR,
        &coll::services(),
        launch,
        publish,
        lookup,
        unpublish,
        parent,
        nspace_size,
        context_id_of,
        intercomm_create_of,
        remote_proc,
        connect_timeout_ms,
        set_error_fmt,
        verbosity,
        local_proc,
        publish_as,
        lookup_wait,
        comm_self,
        // 1.2
        own_cards,
        provide_cards,
        // 1.3
        unpublish_as,
    };
    return table;
}

}  // namespace plexus::mpi::dpm
