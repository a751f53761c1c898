// The PMIx client calls, each reduced to a Status that names the call, the key or peer, and
// PMIx's own words for what went wrong.
#include "runtime/pmix_client.h"

#ifdef PLEXUS_HAVE_PMIX

#include <cstring>

namespace plexus::runtime {
namespace {

// A pmix_info_t array built up key by key; PMIx copies what it is given, so each entry is
// destructed here.
class InfoList {
public:
    InfoList() { infos_.reserve(4); }
    ~InfoList() {
        for (auto &i : infos_) PMIX_INFO_DESTRUCT(&i);
    }
    InfoList(const InfoList &) = delete;
    InfoList &operator=(const InfoList &) = delete;

    void add(const char *key, const void *data, pmix_data_type_t type) {
        pmix_info_t info;
        PMIX_INFO_CONSTRUCT(&info);
        PMIx_Info_load(&info, key, data, type);
        infos_.push_back(info);
    }
    void add_flag(const char *key) {
        bool yes = true;
        add(key, &yes, PMIX_BOOL);
    }
    void add_timeout(int timeout_s) {
        if (timeout_s > 0) add(PMIX_TIMEOUT, &timeout_s, PMIX_INT);
    }
    pmix_info_t *data() { return infos_.empty() ? nullptr : infos_.data(); }
    size_t size() const { return infos_.size(); }

private:
    std::vector<pmix_info_t> infos_;
};

pmix_proc_t make_proc(const std::string &nspace, std::optional<uint32_t> rank) {
    pmix_proc_t p;
    PMIX_PROC_CONSTRUCT(&p);
    PMIX_LOAD_PROCID(&p, nspace.c_str(), rank ? *rank : PMIX_RANK_WILDCARD);
    return p;
}

std::string proc_text(const pmix_proc_t &p) {
    return std::string(p.nspace) + ":" + (p.rank == PMIX_RANK_WILDCARD ? "*" : std::to_string(p.rank));
}

Status failure(pmix_status_t rc, const std::string &what) {
    return Status::error(plexus_status_from_pmix(rc),
                         what + " failed: " + PMIx_Error_string(rc));
}

// Any unsigned or signed integer PMIx type, as servers differ in which width they send.
bool as_u64(const pmix_value_t &v, uint64_t *out) {
    switch (v.type) {
    case PMIX_UINT8: *out = v.data.uint8; return true;
    case PMIX_UINT16: *out = v.data.uint16; return true;
    case PMIX_UINT32: *out = v.data.uint32; return true;
    case PMIX_UINT64: *out = v.data.uint64; return true;
    case PMIX_SIZE: *out = v.data.size; return true;
    case PMIX_PROC_RANK: *out = v.data.rank; return true;
    case PMIX_INT: if (v.data.integer < 0) return false; *out = static_cast<uint64_t>(v.data.integer); return true;
    case PMIX_INT32: if (v.data.int32 < 0) return false; *out = static_cast<uint64_t>(v.data.int32); return true;
    case PMIX_INT64: if (v.data.int64 < 0) return false; *out = static_cast<uint64_t>(v.data.int64); return true;
    default: return false;
    }
}

Status wrong_type(const char *key, const pmix_value_t &v, const char *wanted) {
    return Status::error(PLEXUS_ERROR, std::string("PMIx key ") + key + " holds a " +
                                           PMIx_Data_type_string(v.type) + ", expected " + wanted);
}

pmix_scope_t pmix_scope(PmixClient::Scope s) {
    switch (s) {
    case PmixClient::Scope::Local: return PMIX_LOCAL;
    case PmixClient::Scope::Remote: return PMIX_REMOTE;
    case PmixClient::Scope::Global: break;
    }
    return PMIX_GLOBAL;
}

// NULL-terminated char* views of strings that outlive the call that uses them.
std::vector<char *> c_argv(const std::vector<std::string> &v) {
    std::vector<char *> out;
    for (const auto &s : v) out.push_back(const_cast<char *>(s.c_str()));
    out.push_back(nullptr);
    return out;
}

}  // namespace

int plexus_status_from_pmix(pmix_status_t rc) {
    switch (rc) {
    case PMIX_SUCCESS: return PLEXUS_SUCCESS;
    case PMIX_ERR_NOT_FOUND: return PLEXUS_ERR_NOT_FOUND;
    case PMIX_ERR_TIMEOUT: return PLEXUS_ERR_TIMEOUT;
    case PMIX_ERR_UNREACH: return PLEXUS_ERR_UNREACH;
    case PMIX_ERR_NOT_SUPPORTED: return PLEXUS_ERR_NOT_SUPPORTED;
    case PMIX_ERR_BAD_PARAM: return PLEXUS_ERR_BAD_PARAM;
    case PMIX_ERR_NOMEM:
    case PMIX_ERR_OUT_OF_RESOURCE: return PLEXUS_ERR_OUT_OF_RESOURCE;
    case PMIX_EXISTS:
    case PMIX_ERR_DUPLICATE_KEY: return PLEXUS_ERR_EXISTS;
    case PMIX_ERR_INIT:
    case PMIX_ERR_LOST_CONNECTION:
        return PLEXUS_ERR_NOT_AVAILABLE;
    default: return PLEXUS_ERROR;
    }
}

void PmixClient::ValueDeleter::operator()(pmix_value_t *v) const {
    PMIX_VALUE_RELEASE(v);
}

Status PmixClient::connect(std::unique_ptr<PmixClient> *out) {
    std::unique_ptr<PmixClient> c(new PmixClient());
    auto start = std::chrono::steady_clock::now();
    pmix_status_t rc = PMIx_Init(&c->self_, nullptr, 0);
    c->init_time_ = std::chrono::steady_clock::now() - start;
    if (rc != PMIX_SUCCESS)
        return failure(rc, "PMIx_Init (is the PMIx server that launched this process alive?)");
    c->initialized_ = true;
    *out = std::move(c);
    return Status::ok();
}

PmixClient::~PmixClient() {
    if (initialized_) PMIx_Finalize(nullptr, 0);
}

Status PmixClient::get(const pmix_proc_t &proc, const char *key, const GetOptions &o,
                       ValuePtr *out) {
    InfoList info;
    info.add_timeout(o.timeout_s);
    if (o.optional) info.add_flag(PMIX_OPTIONAL);
    pmix_value_t *v = nullptr;
    pmix_status_t rc = PMIx_Get(&proc, key, info.data(), info.size(), &v);
    if (rc != PMIX_SUCCESS || !v)
        return failure(rc == PMIX_SUCCESS ? PMIX_ERR_NOT_FOUND : rc,
                       std::string("PMIx_Get(") + key + ") for " + proc_text(proc));
    out->reset(v);
    return Status::ok();
}

Status PmixClient::get_u32(const std::string &nspace, std::optional<uint32_t> rank,
                           const char *key, const GetOptions &o, uint32_t *out) {
    ValuePtr v;
    if (Status s = get(make_proc(nspace, rank), key, o, &v); !s) return s;
    uint64_t n = 0;
    if (!as_u64(*v, &n) || n > UINT32_MAX) return wrong_type(key, *v, "32-bit unsigned integer");
    *out = static_cast<uint32_t>(n);
    return Status::ok();
}

Status PmixClient::get_string(const std::string &nspace, std::optional<uint32_t> rank,
                              const char *key, const GetOptions &o, std::string *out) {
    ValuePtr v;
    if (Status s = get(make_proc(nspace, rank), key, o, &v); !s) return s;
    if (v->type != PMIX_STRING || !v->data.string) return wrong_type(key, *v, "string");
    *out = v->data.string;
    return Status::ok();
}

Status PmixClient::get_bytes(const ProcId &proc, const std::string &key, const GetOptions &o,
                             std::vector<uint8_t> *out) {
    ValuePtr v;
    if (Status s = get(make_proc(proc.nspace, proc.rank), key.c_str(), o, &v); !s) return s;
    if (v->type == PMIX_BYTE_OBJECT) {
        const auto *b = reinterpret_cast<const uint8_t *>(v->data.bo.bytes);
        out->assign(b, b + v->data.bo.size);
    } else if (v->type == PMIX_STRING && v->data.string) {
        out->assign(v->data.string, v->data.string + std::strlen(v->data.string));
    } else {
        return wrong_type(key.c_str(), *v, "byte object");
    }
    return Status::ok();
}

Status PmixClient::get_proc(const std::string &nspace, std::optional<uint32_t> rank,
                            const char *key, const GetOptions &o, ProcId *out) {
    ValuePtr v;
    if (Status s = get(make_proc(nspace, rank), key, o, &v); !s) return s;
    if (v->type != PMIX_PROC || !v->data.proc) return wrong_type(key, *v, "process id");
    *out = {v->data.proc->nspace, v->data.proc->rank};
    return Status::ok();
}

Status PmixClient::put_bytes(Scope scope, const std::string &key, const void *data, size_t len) {
    pmix_byte_object_t bo;
    bo.bytes = const_cast<char *>(static_cast<const char *>(data));
    bo.size = len;
    pmix_value_t v;
    PMIX_VALUE_CONSTRUCT(&v);
    PMIx_Value_load(&v, &bo, PMIX_BYTE_OBJECT);  // copies; PMIx_Put copies again
    pmix_status_t rc = PMIx_Put(pmix_scope(scope), key.c_str(), &v);
    PMIX_VALUE_DESTRUCT(&v);
    return rc == PMIX_SUCCESS ? Status::ok() : failure(rc, "PMIx_Put(" + key + ")");
}

Status PmixClient::put_string(Scope scope, const std::string &key, const std::string &value) {
    pmix_value_t v;
    PMIX_VALUE_CONSTRUCT(&v);
    PMIx_Value_load(&v, value.c_str(), PMIX_STRING);
    pmix_status_t rc = PMIx_Put(pmix_scope(scope), key.c_str(), &v);
    PMIX_VALUE_DESTRUCT(&v);
    return rc == PMIX_SUCCESS ? Status::ok() : failure(rc, "PMIx_Put(" + key + ")");
}

Status PmixClient::commit() {
    pmix_status_t rc = PMIx_Commit();
    return rc == PMIX_SUCCESS ? Status::ok() : failure(rc, "PMIx_Commit");
}

Status PmixClient::fence(const std::vector<ProcId> &procs, bool collect, int timeout_s) {
    std::vector<pmix_proc_t> set;
    for (const auto &p : procs) set.push_back(make_proc(p.nspace, p.rank));
    if (set.empty()) set.push_back(make_proc(self_.nspace, std::nullopt));
    InfoList info;
    if (collect) info.add_flag(PMIX_COLLECT_DATA);
    info.add_timeout(timeout_s);
    pmix_status_t rc = PMIx_Fence(set.data(), set.size(), info.data(), info.size());
    if (rc == PMIX_SUCCESS) return Status::ok();
    std::string what = "PMIx_Fence over " + (procs.empty() ? std::string(self_.nspace) + ":*"
                                                             : std::to_string(procs.size()) + " processes");
    return failure(rc, what);
}

Status PmixClient::abort(int status, const std::string &message) {
    pmix_status_t rc = PMIx_Abort(status, message.c_str(), nullptr, 0);
    return rc == PMIX_SUCCESS ? Status::ok() : failure(rc, "PMIx_Abort");
}

Status PmixClient::spawn(const SpawnRequest &request, std::string *nspace) {
    return spawn(std::vector<SpawnRequest>{request}, nspace);
}

Status PmixClient::spawn(const std::vector<SpawnRequest> &requests, std::string *nspace) {
    // The char* views must outlive PMIx_Spawn: one pair of vectors per application.
    std::vector<std::vector<char *>> argvs, envs;
    std::vector<pmix_app_t> apps(requests.size());
    std::string what;
    for (size_t i = 0; i < requests.size(); ++i) {
        const SpawnRequest &r = requests[i];
        argvs.push_back(c_argv(r.argv));
        envs.push_back(c_argv(r.env));
        pmix_app_t &app = apps[i];
        std::memset(&app, 0, sizeof app);
        app.cmd = const_cast<char *>(r.command.c_str());
        app.argv = argvs.back().data();
        app.env = envs.back().data();
        app.cwd = r.cwd.empty() ? nullptr : const_cast<char *>(r.cwd.c_str());
        app.maxprocs = r.maxprocs;
        what += (what.empty() ? "" : ", ") + r.command + " x" + std::to_string(r.maxprocs);
    }
    pmix_nspace_t child;
    PMIX_LOAD_NSPACE(child, nullptr);
    pmix_status_t rc = PMIx_Spawn(nullptr, 0, apps.data(), apps.size(), child);
    if (rc != PMIX_SUCCESS) return failure(rc, "PMIx_Spawn(" + what + ")");
    *nspace = child;
    return Status::ok();
}

Status PmixClient::publish(const std::string &key, const std::string &value, Persistence persistence) {
    InfoList info;
    info.add(key.c_str(), value.c_str(), PMIX_STRING);
    if (persistence != Persistence::Default) {
        pmix_persistence_t p = persistence == Persistence::Process ? PMIX_PERSIST_PROC : PMIX_PERSIST_FIRST_READ;
        info.add(PMIX_PERSISTENCE, &p, PMIX_PERSIST);
    }
    pmix_status_t rc = PMIx_Publish(info.data(), info.size());
    return rc == PMIX_SUCCESS ? Status::ok() : failure(rc, "PMIx_Publish(" + key + ")");
}

Status PmixClient::lookup(const std::string &key, bool wait, int timeout_s, std::string *value) {
    InfoList info;
    if (wait) {
        int all = 0;  // PMIX_WAIT's count: 0 means every key asked for
        info.add(PMIX_WAIT, &all, PMIX_INT);
    }
    info.add_timeout(timeout_s);
    pmix_pdata_t pdata;
    PMIX_PDATA_CONSTRUCT(&pdata);
    PMIX_LOAD_KEY(pdata.key, key.c_str());
    pmix_status_t rc = PMIx_Lookup(&pdata, 1, info.data(), info.size());
    Status s = Status::ok();
    if (rc != PMIX_SUCCESS) {
        s = failure(rc, "PMIx_Lookup(" + key + ")");
    } else if (pdata.value.type != PMIX_STRING || !pdata.value.data.string) {
        s = wrong_type(key.c_str(), pdata.value, "string");
    } else {
        *value = pdata.value.data.string;
    }
    PMIX_PDATA_DESTRUCT(&pdata);
    return s;
}

Status PmixClient::unpublish(const std::string &key) {
    std::vector<std::string> keys{key};
    std::vector<char *> argv = c_argv(keys);
    pmix_status_t rc = PMIx_Unpublish(argv.data(), nullptr, 0);
    return rc == PMIX_SUCCESS ? Status::ok() : failure(rc, "PMIx_Unpublish(" + key + ")");
}

Status PmixClient::disconnect_start(const std::vector<ProcId> &procs, int timeout_s,
                                    const std::shared_ptr<PendingOp> &op) {
    std::vector<pmix_proc_t> set;
    for (const auto &p : procs) set.push_back(make_proc(p.nspace, p.rank));
    const std::string what = "PMIx_Disconnect over " + std::to_string(procs.size()) + " processes";
    InfoList info;  // packed into the request before PMIx_Disconnect_nb returns
    info.add_timeout(timeout_s);
    struct Pending {
        std::shared_ptr<PendingOp> op;  // the waiter may have given up and gone: shared
        std::string what;
    };
    auto *pending = new Pending{op, what};
    pmix_status_t rc = PMIx_Disconnect_nb(
        set.data(), set.size(), info.data(), info.size(),
        [](pmix_status_t status, void *cbdata) {
            std::unique_ptr<Pending> p(static_cast<Pending *>(cbdata));
            p->op->finish(status == PMIX_SUCCESS ? Status::ok() : failure(status, p->what));
        },
        pending);
    if (rc != PMIX_SUCCESS) {  // no callback comes
        delete pending;
        return failure(rc, what);
    }
    return Status::ok();
}

}  // namespace plexus::runtime

#endif  // PLEXUS_HAVE_PMIX
