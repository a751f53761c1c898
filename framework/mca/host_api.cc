#include "host_api.h"

#include <arpa/inet.h>

#include <algorithm>
#include <chrono>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>

#include "mca_core.h"
#include "base/output.h"
#include "param_c_view.h"
#include "runtime/progress.h"
#include "runtime/dgram/dgram_services.h"
#include "runtime/dgram/interface_lookup.h"
#include "runtime/runtime.h"
#include "runtime/shm/shm_services.h"
#include "runtime/topology.h"

namespace plexus::mca {
namespace {

// Every entry point checks its caller: a component from another build may pass anything.
ComponentRecord *caller(const plexus_component_t *self) {
    McaCore *core = McaCore::current();
    return core && self ? core->repository().find(self) : nullptr;
}

int param_register(const plexus_component_t *self, const plexus_param_desc_t *desc) {
    ComponentRecord *c = caller(self);
    if (!c || !desc || desc->struct_size < offsetof(plexus_param_desc_t, storage) + sizeof(void *) ||
        !desc->name)
        return PLEXUS_ERR_BAD_PARAM;
    const ParamSpec spec = spec_from_desc(*desc, c->framework, c->name);
    std::string err;
    if (!McaCore::current()->params().register_param(spec, desc->storage, &err)) {
        emit(PLEXUS_LOG_ERROR, c->full_name(), "cannot register parameter: " + err);
        return PLEXUS_ERR_BAD_PARAM;
    }
    return PLEXUS_SUCCESS;
}

int param_lookup(const char *full_name, plexus_param_value_t *out) {
    McaCore *core = McaCore::current();
    if (!core || !full_name || !out) return PLEXUS_ERR_BAD_PARAM;
    const Param *p = core->params().find(full_name);
    if (!p) return PLEXUS_ERR_NOT_FOUND;
    *out = value_of(*p);
    return PLEXUS_SUCCESS;
}

void log(const plexus_component_t *self, int level, const char *fmt, ...) {
    if (!fmt) return;
    // Components trace on their data paths: a level nobody asked for must be rejected before
    // any name is built or anything formatted.
    ComponentRecord *c = caller(self);
    if (level > 0 && level > (c ? framework_verbosity(c->framework) : 0)) return;
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    std::vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    emit(level, c ? c->full_name() : "unknown component", buf);
}

int verbosity(const plexus_component_t *self) {
    ComponentRecord *c = caller(self);
    return c ? framework_verbosity(c->framework) : 0;
}

int progress_register(plexus_progress_fn_t fn, void *ctx) {
    McaCore *core = McaCore::current();
    return core ? core->progress().add(fn, ctx) : PLEXUS_ERROR;
}

int progress_unregister(plexus_progress_fn_t fn, void *ctx) {
    McaCore *core = McaCore::current();
    return core ? core->progress().remove(fn, ctx) : PLEXUS_ERROR;
}

int topology_summary(plexus_topology_summary_t *out) {
    McaCore *core = McaCore::current();
    if (!core || !out || out->struct_size < sizeof(plexus_topology_summary_t)) return PLEXUS_ERR_BAD_PARAM;
    try {
        *out = core->topology().summary();
    } catch (const std::exception &e) {
        emit(PLEXUS_LOG_WARN, "mca", std::string("topology unavailable: ") + e.what());
        return PLEXUS_ERR_NOT_AVAILABLE;
    }
    return PLEXUS_SUCCESS;
}

int topology_relation(const char *a, const char *b, unsigned *shared) {
    McaCore *core = McaCore::current();
    if (!core || !a || !b || !shared) return PLEXUS_ERR_BAD_PARAM;
    try {
        return core->topology().relation(a, b, shared) == 0 ? PLEXUS_SUCCESS : PLEXUS_ERR_BAD_PARAM;
    } catch (const std::exception &) {
        return PLEXUS_ERR_NOT_AVAILABLE;
    }
}

int topology_self_cpuset(char *buf, size_t len) {
    McaCore *core = McaCore::current();
    if (!core || !buf || len == 0) return PLEXUS_ERR_BAD_PARAM;
    try {
        std::string set = core->topology().self_cpuset();
        if (set.size() >= len) return PLEXUS_ERR_OUT_OF_RESOURCE;
        std::memcpy(buf, set.c_str(), set.size() + 1);
    } catch (const std::exception &) {
        return PLEXUS_ERR_NOT_AVAILABLE;
    }
    return PLEXUS_SUCCESS;
}

// ---- 1.1: the runtime ----

runtime::Runtime *running() { return runtime::Runtime::current(); }

// A failed runtime call is logged with its message (components only see the code).
int report(const runtime::Status &s, const std::string &where) {
    if (!s) emit(PLEXUS_LOG_DETAIL, "runtime", where + ": " + s.message);
    return s.code;
}

int job_info(plexus_job_info_t *out) {
    runtime::Runtime *rt = running();
    if (!out || out->struct_size < offsetof(plexus_job_info_t, nspace)) return PLEXUS_ERR_BAD_PARAM;
    if (!rt) return PLEXUS_ERR_NOT_AVAILABLE;
    const runtime::JobInfo &j = rt->job();
    plexus_job_info_t full{};
    full.struct_size = sizeof full;
    full.rank = j.rank;
    full.size = j.size;
    full.local_rank = j.local_rank;
    full.local_size = j.local_size;
    full.node_id = j.node_id;
    full.appnum = j.appnum;
    full.oversubscribed = j.oversubscribed() ? 1 : 0;
    full.universe_size = j.universe_size ? static_cast<int64_t>(*j.universe_size) : -1;
    std::snprintf(full.nspace, sizeof full.nspace, "%s", j.nspace.c_str());
    full.cpus_online = runtime::JobInfo::cpus_online();
    // An older caller's struct is shorter: fill what it has, keep its struct_size.
    const size_t n = std::min<size_t>(out->struct_size, sizeof full);
    const uint32_t callers_size = out->struct_size;
    std::memcpy(out, &full, n);
    out->struct_size = callers_size;
    return PLEXUS_SUCCESS;
}

int job_secret(uint8_t *buf, size_t len) {
    runtime::Runtime *rt = running();
    if (!buf || len < PLEXUS_JOB_SECRET_LEN) return PLEXUS_ERR_BAD_PARAM;
    if (!rt) return PLEXUS_ERR_NOT_AVAILABLE;
    runtime::JobSecret secret;
    if (int rc = report(rt->secret(&secret), "job_secret"); rc != PLEXUS_SUCCESS) return rc;
    std::memcpy(buf, secret.bytes().data(), PLEXUS_JOB_SECRET_LEN);
    return PLEXUS_SUCCESS;
}

int shm_name_prefix(char *buf, size_t len) {
    runtime::Runtime *rt = running();
    if (!buf || len == 0) return PLEXUS_ERR_BAD_PARAM;
    if (!rt) return PLEXUS_ERR_NOT_AVAILABLE;
    std::string prefix;
    if (int rc = report(rt->shm_prefix(&prefix), "shm_name_prefix"); rc != PLEXUS_SUCCESS) return rc;
    if (prefix.size() >= len) return PLEXUS_ERR_OUT_OF_RESOURCE;
    std::memcpy(buf, prefix.c_str(), prefix.size() + 1);
    return PLEXUS_SUCCESS;
}

int modex_put(const plexus_component_t *self, const void *data, size_t len) {
    ComponentRecord *c = caller(self);
    runtime::Runtime *rt = running();
    if (!c || (!data && len > 0)) return PLEXUS_ERR_BAD_PARAM;
    if (!rt) return PLEXUS_ERR_NOT_AVAILABLE;
    return report(rt->modex().put(c->full_name(), data, len), c->full_name() + " modex_put");
}

int modex_get(const plexus_component_t *self, const char *nspace, uint32_t rank, const void **data,
              size_t *len, int timeout_ms) {
    ComponentRecord *c = caller(self);
    runtime::Runtime *rt = running();
    if (!c || !data || !len) return PLEXUS_ERR_BAD_PARAM;
    if (!rt) return PLEXUS_ERR_NOT_AVAILABLE;
    const runtime::ProcId peer{nspace ? std::string(nspace) : rt->job().nspace, rank};
    const int ms = timeout_ms < 0 ? rt->settings().modex_timeout_ms : timeout_ms;
    const runtime::Modex::Card *card = nullptr;
    runtime::Status s = rt->modex().get(peer, c->full_name(), runtime::timeout_seconds(ms), &card);
    if (!s) return report(s, c->full_name() + " modex_get");
    *data = card->data();
    *len = card->size();
    return PLEXUS_SUCCESS;
}

int fence() {
    runtime::Runtime *rt = running();
    return rt ? report(rt->fence_init(), "fence") : PLEXUS_ERR_NOT_AVAILABLE;
}

void abort_job(int status, const char *msg) {
    std::string text = msg ? msg : "(no message)";
    if (runtime::Runtime *rt = running()) rt->abort(status, text);
    emit(PLEXUS_LOG_ERROR, "runtime", "abort without a runtime (status " + std::to_string(status) + "): " + text);
    std::_Exit(status == 0 ? 1 : status);
}

int progress_wait(plexus_done_fn_t done, void *ctx, int timeout_ms) {
    McaCore *core = McaCore::current();
    if (!done) return PLEXUS_ERR_BAD_PARAM;
    if (!core) return PLEXUS_ERR_NOT_AVAILABLE;
    std::optional<std::chrono::nanoseconds> timeout;
    if (timeout_ms >= 0) timeout = std::chrono::milliseconds(timeout_ms);
    return core->progress().wait_until([&] { return done(ctx) != 0; }, timeout);
}

int mem_bind_local(void *addr, size_t len) {
    McaCore *core = McaCore::current();
    if (!addr || len == 0) return PLEXUS_ERR_BAD_PARAM;
    if (!core) return PLEXUS_ERR_NOT_AVAILABLE;
    // Nothing to place: spares the rank the topology load, hwloc and the plugins it dlopens
    // (libxml2 and ICU, OpenCL, GL and X11, pciaccess): 2.6 ms of CPU per rank measured.
    if (runtime::Topology::memory_binding_moot()) return PLEXUS_SUCCESS;
    try {
        return core->topology().bind_area_local(addr, len) ? PLEXUS_SUCCESS : PLEXUS_ERR_NOT_AVAILABLE;
    } catch (const std::exception &) {
        return PLEXUS_ERR_NOT_AVAILABLE;  // no topology: first touch places the memory
    }
}

int param_is_set(const char *full_name) {
    McaCore *core = McaCore::current();
    if (!full_name) return PLEXUS_ERR_BAD_PARAM;
    if (!core) return PLEXUS_ERR_NOT_AVAILABLE;
    const Param *p = core->params().find(full_name);
    if (!p) return PLEXUS_ERR_NOT_FOUND;
    return p->source == SourceKind::Default ? 0 : 1;
}

// ---- 1.4 ----

// The launcher's word (PMIX_LOCAL_PEERS, read into the job's local peers) for this job's ranks;
// other jobs' processes are not in it.
int proc_on_this_node(const char *nspace, uint32_t rank) {
    runtime::Runtime *rt = running();
    if (!rt) return PLEXUS_ERR_NOT_AVAILABLE;
    const runtime::JobInfo &j = rt->job();
    if ((nspace && j.nspace != nspace) || rank >= j.size) return PLEXUS_ERR_NOT_FOUND;
    return std::find(j.local_peers.begin(), j.local_peers.end(), rank) != j.local_peers.end() ? 1 : 0;
}

// ---- 1.5 ----

int ipv4_interfaces(plexus_ipv4_interface_t *out, size_t max, size_t *count) {
    if (!count || (max > 0 && !out)) return PLEXUS_ERR_BAD_PARAM;
    std::vector<runtime::dgram::Ipv4Interface> all;
    if (runtime::Status s = runtime::dgram::list_ipv4_interfaces(&all); !s) return s.code;
    *count = all.size();
    for (size_t i = 0; i < all.size() && i < max; ++i) {
        plexus_ipv4_interface_t &o = out[i];
        o = plexus_ipv4_interface_t{};
        std::snprintf(o.name, sizeof o.name, "%s", all[i].name.c_str());
        o.addr = ntohl(all[i].address.s_addr);
        o.netmask = ntohl(all[i].netmask.s_addr);
        o.index = all[i].index;
        o.mtu = static_cast<uint32_t>(all[i].mtu);
        o.flags = (all[i].loopback ? PLEXUS_IF_LOOPBACK : 0u) | (all[i].multicast ? PLEXUS_IF_MULTICAST : 0u);
    }
    return PLEXUS_SUCCESS;
}

// ---- 1.6 ----

int peer_secrets(const char *nspace, uint32_t rank, uint8_t *buf, size_t max, size_t *count) {
    if (!nspace || !count || (max > 0 && !buf)) return PLEXUS_ERR_BAD_PARAM;
    *count = 0;
    runtime::Runtime *rt = running();
    if (!rt) return PLEXUS_ERR_NOT_AVAILABLE;
    if (rt->job().nspace == nspace) return PLEXUS_ERR_NOT_FOUND;  // the job secret's
    const std::vector<runtime::PeerSecrets::Secret> all = rt->peer_secrets().of({nspace, rank});
    static_assert(runtime::PeerSecrets::kBytes == PLEXUS_PEER_SECRET_LEN);
    for (size_t i = 0; i < all.size() && i < max; ++i)
        std::memcpy(buf + i * PLEXUS_PEER_SECRET_LEN, all[i].data(), PLEXUS_PEER_SECRET_LEN);
    *count = all.size();
    return all.empty() ? PLEXUS_ERR_NOT_FOUND : PLEXUS_SUCCESS;
}

const plexus_host_api_t kTable = {
    sizeof(plexus_host_api_t), PLEXUS_HOST_API_MAJOR, PLEXUS_HOST_API_MINOR,
    param_register, param_lookup, log, verbosity, progress_register, progress_unregister,
    topology_summary, topology_relation, topology_self_cpuset,
    // 1.1
    job_info, job_secret, shm_name_prefix, modex_put, modex_get, fence, abort_job, progress_wait,
    // 1.2
    mem_bind_local,
    // 1.3: the service tables are filled by the runtime's facilities as they land
    &runtime::kShmServices, &runtime::dgram::kServices, param_is_set,
    // 1.4
    proc_on_this_node,
    // 1.5
    ipv4_interfaces,
    // 1.6
    peer_secrets,
};

}  // namespace

const plexus_host_api_t *host_api_table() { return &kTable; }

}  // namespace plexus::mca
