// libpmix's upcalls: copy the arguments, post the work to the event loop, answer from there.
#include "upcalls.h"

#include <atomic>
#include <cstring>
#include <mutex>
#include <optional>
#include <set>

#include "event_loop.h"
#include "trace.h"

namespace plexrun {
namespace {

std::atomic<EventLoop *> g_loop{nullptr};
Host *g_host = nullptr;

void post(EventLoop::Task task) {
    if (EventLoop *loop = g_loop.load()) loop->post(std::move(task));
}

OpDone op_done(pmix_op_cbfunc_t cbfunc, void *cbdata) {
    return [cbfunc, cbdata](pmix_status_t status) {
        if (cbfunc) cbfunc(status, cbdata);
    };
}

std::string name_of(const pmix_proc_t *p) {
    return std::string(p->nspace) + ":" +
           (p->rank == PMIX_RANK_WILDCARD ? "*" : std::to_string(p->rank));
}

std::vector<std::string> strings_of(char **list) {
    std::vector<std::string> out;
    for (size_t i = 0; list && list[i]; ++i) out.emplace_back(list[i]);
    return out;
}

std::optional<long long> integer_of(const pmix_value_t &v) {
    switch (v.type) {
        case PMIX_BOOL: return v.data.flag ? 1 : 0;
        case PMIX_INT: return v.data.integer;
        case PMIX_INT8: return v.data.int8;
        case PMIX_INT16: return v.data.int16;
        case PMIX_INT32: return v.data.int32;
        case PMIX_INT64: return v.data.int64;
        case PMIX_UINT: return v.data.uint;
        case PMIX_UINT8: return v.data.uint8;
        case PMIX_UINT16: return v.data.uint16;
        case PMIX_UINT32: return v.data.uint32;
        case PMIX_UINT64: return static_cast<long long>(v.data.uint64);
        case PMIX_SIZE: return static_cast<long long>(v.data.size);
        default: return std::nullopt;
    }
}

bool is_key(const pmix_info_t &info, const char *key) {
    return std::strncmp(info.key, key, PMIX_MAX_KEYLEN) == 0;
}

// ---------------------------------------------------------------- client life cycle

pmix_status_t client_connected(const pmix_proc_t *proc, void *, pmix_op_cbfunc_t cbfunc,
                               void *cbdata) {
    ProcName who = ProcName::from(*proc);
    trace("upcall client_connected %s", name_of(proc).c_str());
    post([who, done = op_done(cbfunc, cbdata)] { g_host->client_connected(who, done); });
    return PMIX_SUCCESS;
}

pmix_status_t client_connected2(const pmix_proc_t *proc, void *object, pmix_info_t *, size_t,
                                pmix_op_cbfunc_t cbfunc, void *cbdata) {
    return client_connected(proc, object, cbfunc, cbdata);
}

pmix_status_t client_finalized(const pmix_proc_t *proc, void *, pmix_op_cbfunc_t cbfunc,
                               void *cbdata) {
    ProcName who = ProcName::from(*proc);
    trace("upcall client_finalized %s", name_of(proc).c_str());
    post([who, done = op_done(cbfunc, cbdata)] { g_host->client_finalized(who, done); });
    return PMIX_SUCCESS;
}

// The aborting client is released at once: plexrun is about to kill it anyway, and its
// PMIx_Abort returning is harmless (the posted work runs before its exit is looked at).
pmix_status_t abort_fn(const pmix_proc_t *proc, void *, int status, const char msg[], pmix_proc_t[],
                       size_t, pmix_op_cbfunc_t, void *) {
    ProcName who = ProcName::from(*proc);
    std::string message = msg ? msg : "";
    trace("upcall abort %s status %d: %s", name_of(proc).c_str(), status, message.c_str());
    post([who, status, message] { g_host->abort(who, status, message); });
    return PMIX_OPERATION_SUCCEEDED;  // libpmix answers the client itself; no callback
}

// ---------------------------------------------------------------- collectives

void release_blob(void *blob) {
    delete static_cast<std::vector<char> *>(blob);
}

// On one node the data libpmix hands up is already everyone's: it goes straight back.
pmix_status_t fence_nb(const pmix_proc_t procs[], size_t nprocs, const pmix_info_t[], size_t,
                       char *data, size_t ndata, pmix_modex_cbfunc_t cbfunc, void *cbdata) {
    trace("upcall fence_nb %zu proc entr%s (first %s), %zu bytes", nprocs,
          nprocs == 1 ? "y" : "ies", nprocs ? name_of(&procs[0]).c_str() : "-", ndata);
    auto *blob = new std::vector<char>(data, data + ndata);
    post([blob, cbfunc, cbdata] {
        if (cbfunc)
            cbfunc(PMIX_SUCCESS, blob->data(), blob->size(), cbdata, release_blob, blob);
        else
            release_blob(blob);
    });
    return PMIX_SUCCESS;
}

int timeout_of(const pmix_info_t info[], size_t ninfo) {
    for (size_t i = 0; i < ninfo; ++i)
        if (is_key(info[i], PMIX_TIMEOUT))
            if (auto n = integer_of(info[i].value)) return static_cast<int>(*n);
    return 0;
}

// libpmix serves every local process's data itself; it asks the host only about processes it
// does not host: another plexrun's (the host forwards the request) or nobody's.
// libpmix 4.2.2 asks again, with the same cbdata, for every request still open about a
// namespace when that namespace is registered (pmix_pending_nspace_requests), which plexrun does
// for another plexrun's namespace at its first request: both answers would complete one tracker
// twice (the second on freed memory: a deadlock in pmix_pending_resolve). The first answer
// serves it; a repeat is taken and left alone.
std::mutex g_modex_lock;
std::set<void *> g_modex_open;

pmix_status_t direct_modex(const pmix_proc_t *proc, const pmix_info_t info[], size_t ninfo,
                           pmix_modex_cbfunc_t cbfunc, void *cbdata) {
    ProcName who = ProcName::from(*proc);
    int timeout = timeout_of(info, ninfo);
    {
        std::lock_guard<std::mutex> guard(g_modex_lock);
        if (!g_modex_open.insert(cbdata).second) {
            trace("upcall direct_modex %s: already asked", name_of(proc).c_str());
            return PMIX_SUCCESS;
        }
    }
    trace("upcall direct_modex %s", name_of(proc).c_str());
    ModexDone done = [cbfunc, cbdata](pmix_status_t s, std::vector<char> data) {
        {
            std::lock_guard<std::mutex> guard(g_modex_lock);
            g_modex_open.erase(cbdata);
        }
        if (!cbfunc) return;
        if (s != PMIX_SUCCESS || data.empty())
            return cbfunc(s, nullptr, 0, cbdata, nullptr, nullptr);
        auto *blob = new std::vector<char>(std::move(data));
        cbfunc(PMIX_SUCCESS, blob->data(), blob->size(), cbdata, release_blob, blob);
    };
    post([who, timeout, done] { g_host->direct_modex(who, timeout, done); });
    return PMIX_SUCCESS;
}

pmix_status_t fence_across(FenceKind kind, const pmix_proc_t procs[], size_t nprocs,
                           const pmix_info_t info[], size_t ninfo, pmix_op_cbfunc_t cbfunc,
                           void *cbdata) {
    std::vector<ProcName> names;
    for (size_t i = 0; i < nprocs; ++i) names.push_back(ProcName::from(procs[i]));
    int timeout = timeout_of(info, ninfo);
    trace("upcall %s %zu procs (first %s)", kind == FenceKind::Connect ? "connect" : "disconnect",
          nprocs, nprocs ? name_of(&procs[0]).c_str() : "-");
    post([kind, names = std::move(names), timeout, done = op_done(cbfunc, cbdata)]() mutable {
        g_host->fence_across(kind, std::move(names), timeout, done);
    });
    return PMIX_SUCCESS;
}

pmix_status_t connect_fn(const pmix_proc_t procs[], size_t nprocs, const pmix_info_t info[],
                         size_t ninfo, pmix_op_cbfunc_t cbfunc, void *cbdata) {
    return fence_across(FenceKind::Connect, procs, nprocs, info, ninfo, cbfunc, cbdata);
}

pmix_status_t disconnect_fn(const pmix_proc_t procs[], size_t nprocs, const pmix_info_t info[],
                            size_t ninfo, pmix_op_cbfunc_t cbfunc, void *cbdata) {
    return fence_across(FenceKind::Disconnect, procs, nprocs, info, ninfo, cbfunc, cbdata);
}

// ---------------------------------------------------------------- publish / lookup

// Keys in the reserved "pmix." namespace are directives (range, persistence, the publisher's
// uid that libpmix adds); every other key is data.
PublishRequest publish_request(const pmix_info_t info[], size_t ninfo) {
    PublishRequest req;
    for (size_t i = 0; i < ninfo; ++i) {
        const pmix_info_t &in = info[i];
        if (is_key(in, PMIX_RANGE) && in.value.type == PMIX_DATA_RANGE)
            req.range = in.value.data.range;
        else if (is_key(in, PMIX_PERSISTENCE) && in.value.type == PMIX_PERSIST)
            req.persistence = in.value.data.persist;
        else if (std::strncmp(in.key, "pmix.", 5) != 0)
            req.entries.emplace_back(in.key, OwnedValue(in.value));
    }
    return req;
}

pmix_status_t publish_fn(const pmix_proc_t *proc, const pmix_info_t info[], size_t ninfo,
                         pmix_op_cbfunc_t cbfunc, void *cbdata) {
    ProcName who = ProcName::from(*proc);
    auto req = std::make_shared<PublishRequest>(publish_request(info, ninfo));
    trace("upcall publish from %s: %zu key(s)%s%s", name_of(proc).c_str(), req->entries.size(),
          req->entries.empty() ? "" : ", first ",
          req->entries.empty() ? "" : req->entries[0].first.c_str());
    post([who, req, done = op_done(cbfunc, cbdata)] {
        g_host->publish(who, std::move(*req), done);
    });
    return PMIX_SUCCESS;
}

LookupRequest lookup_request(char **keys, const pmix_info_t info[], size_t ninfo) {
    LookupRequest req;
    req.keys = strings_of(keys);
    for (size_t i = 0; i < ninfo; ++i) {
        auto n = integer_of(info[i].value);
        if (is_key(info[i], PMIX_WAIT) && n) {
            // bool true: wait for all; an integer: wait for that many (0 meaning all)
            if (info[i].value.type == PMIX_BOOL)
                req.wait_for = *n ? 0 : -1;
            else
                req.wait_for = static_cast<int>(*n);
        } else if (is_key(info[i], PMIX_TIMEOUT) && n) {
            req.timeout_seconds = static_cast<int>(*n);
        } else if (is_key(info[i], PMIX_RANGE) && info[i].value.type == PMIX_DATA_RANGE) {
            req.range = info[i].value.data.range;
        }
    }
    return req;
}

pmix_status_t lookup_fn(const pmix_proc_t *proc, char **keys, const pmix_info_t info[],
                        size_t ninfo, pmix_lookup_cbfunc_t cbfunc, void *cbdata) {
    ProcName who = ProcName::from(*proc);
    LookupRequest req = lookup_request(keys, info, ninfo);
    trace("upcall lookup from %s: %zu key(s)%s%s, wait %d, timeout %d s", name_of(proc).c_str(),
          req.keys.size(), req.keys.empty() ? "" : ", first ",
          req.keys.empty() ? "" : req.keys[0].c_str(), req.wait_for, req.timeout_seconds);
    LookupDone done = [cbfunc, cbdata](pmix_status_t s, pmix_pdata_t *data, size_t n) {
        if (cbfunc) cbfunc(s, data, n, cbdata);
    };
    post(
        [who, req = std::move(req), done]() mutable { g_host->lookup(who, std::move(req), done); });
    return PMIX_SUCCESS;
}

pmix_status_t unpublish_fn(const pmix_proc_t *proc, char **keys, const pmix_info_t[], size_t,
                           pmix_op_cbfunc_t cbfunc, void *cbdata) {
    ProcName who = ProcName::from(*proc);
    std::vector<std::string> names = strings_of(keys);
    trace("upcall unpublish from %s: %zu key(s)", name_of(proc).c_str(), names.size());
    post([who, names, done = op_done(cbfunc, cbdata)] { g_host->unpublish(who, names, done); });
    return PMIX_SUCCESS;
}

// ---------------------------------------------------------------- spawn and job control

AppSpec app_spec(const pmix_app_t &app) {
    AppSpec spec;
    spec.command = app.cmd ? app.cmd : "";
    spec.argv = strings_of(app.argv);
    if (spec.argv.empty()) spec.argv.push_back(spec.command);
    spec.env = strings_of(app.env);
    spec.cwd = app.cwd ? app.cwd : "";
    spec.procs = app.maxprocs;
    return spec;
}

pmix_status_t spawn_fn(const pmix_proc_t *proc, const pmix_info_t[], size_t,
                       const pmix_app_t apps[], size_t napps, pmix_spawn_cbfunc_t cbfunc,
                       void *cbdata) {
    ProcName who = ProcName::from(*proc);
    std::vector<AppSpec> specs;
    for (size_t i = 0; i < napps; ++i) specs.push_back(app_spec(apps[i]));
    trace("upcall spawn from %s: %zu app(s), first '%s' x%d", name_of(proc).c_str(), napps,
          napps ? specs[0].command.c_str() : "", napps ? specs[0].procs : 0);
    SpawnDone done = [cbfunc, cbdata](pmix_status_t s, const std::string &nspace) {
        pmix_nspace_t ns;
        PMIX_LOAD_NSPACE(ns, nspace.c_str());
        if (cbfunc) cbfunc(s, ns, cbdata);
    };
    post([who, specs, done] { g_host->spawn(who, specs, done); });
    return PMIX_SUCCESS;
}

pmix_status_t job_control(const pmix_proc_t *requestor, const pmix_proc_t[], size_t,
                          const pmix_info_t directives[], size_t ndirs, pmix_info_cbfunc_t,
                          void *) {
    bool kill = false;
    for (size_t i = 0; i < ndirs; ++i)
        kill |= is_key(directives[i], PMIX_JOB_CTRL_KILL) ||
                is_key(directives[i], PMIX_JOB_CTRL_TERMINATE);
    trace("upcall job_control from %s: %s", name_of(requestor).c_str(),
          kill ? "kill" : "unsupported");
    if (!kill) return PMIX_ERR_NOT_SUPPORTED;
    ProcName who = ProcName::from(*requestor);
    post([who] { g_host->kill_request(who); });
    return PMIX_OPERATION_SUCCEEDED;
}

}  // namespace

pmix_server_module_t make_upcall_module(EventLoop *loop, Host *host) {
    g_host = host;
    g_loop.store(loop);
    pmix_server_module_t m{};
    m.client_connected = client_connected;
    m.client_connected2 = client_connected2;
    m.client_finalized = client_finalized;
    m.abort = abort_fn;
    m.fence_nb = fence_nb;
    m.direct_modex = direct_modex;
    m.publish = publish_fn;
    m.lookup = lookup_fn;
    m.unpublish = unpublish_fn;
    m.spawn = spawn_fn;
    m.connect = connect_fn;
    m.disconnect = disconnect_fn;
    m.job_control = job_control;
    return m;
}

void detach_upcalls() {
    g_loop.store(nullptr);
}

}  // namespace plexrun
