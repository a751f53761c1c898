// Building each peer's list of BTL paths.
#include "mpi/bml/bml.h"

#include <algorithm>
#include <cstddef>

#include "mca/btl_common_params.h"
#include "mca/mca_core.h"
#include "base/output.h"

namespace plexus::mpi {

bool btl_module_usable(const plexus_btl_module_t *m, std::string *why) {
    if (!m) {
        *why = "query returned no module";
        return false;
    }
    if (m->major != PLEXUS_BTL_MAJOR || m->minor < 1) {
        *why = "built for btl interface " + std::to_string(m->major) + "." + std::to_string(m->minor) +
               ", which has no data path (needs " + std::to_string(PLEXUS_BTL_MAJOR) + ".1 or newer)";
        return false;
    }
    if (m->struct_size < offsetof(plexus_btl_module_t, pending) + sizeof(void *)) {
        *why = "module struct is " + std::to_string(m->struct_size) + " bytes, too short for its version";
        return false;
    }
    if (!m->add_procs || !m->register_recv || !m->send || m->eager_limit == 0 || m->max_send_size == 0) {
        *why = "module lacks add_procs, register_recv or send, or has no eager limit";
        return false;
    }
    return true;
}

namespace {

// btl_<name>_eager_limit and the others are the core's; a BTL that never reads them would leave
// the user's setting without effect, and without a word.
void warn_unapplied_limits(const plexus_btl_module_t &m) {
    mca::McaCore *core = mca::McaCore::current();
    if (!core) return;
    for (const std::string &w : mca::btl_limits_not_applied(core->params(), m))
        mca::emit(PLEXUS_LOG_WARN, "bml", w);
}

}  // namespace

Bml::Bml(const std::vector<plexus_btl_module_t *> &modules, ProcTable &procs) : procs_(procs) {
    for (auto *m : modules) {
        std::string why;
        if (btl_module_usable(m, &why)) {
            modules_.push_back(m);
            warn_unapplied_limits(*m);
        } else {
            mca::emit(PLEXUS_LOG_WARN, "bml", std::string("btl ") + (m && m->name ? m->name : "?") +
                                                  " left out: " + why);
        }
    }
}

Bml::~Bml() {
    for (auto *m : modules_) {
        if (!m->del_procs) continue;
        std::vector<plexus_btl_endpoint_t *> eps;
        for (auto &p : peers_)
            for (auto &path : p.paths)
                if (path.btl == m) eps.push_back(path.ep);
        if (!eps.empty()) m->del_procs(m, eps.size(), eps.data());
    }
}

std::string Bml::module_names() const {
    std::string names;
    for (auto *m : modules_) names += (names.empty() ? "" : ", ") + std::string(m->name ? m->name : "?");
    return names.empty() ? "none" : names;
}

void Bml::order(BmlPeer &peer) {
    std::stable_sort(peer.paths.begin(), peer.paths.end(), [](const BtlPath &a, const BtlPath &b) {
        if (a.btl->exclusivity != b.btl->exclusivity) return a.btl->exclusivity > b.btl->exclusivity;
        return a.btl->latency_ns < b.btl->latency_ns;
    });
    peer.send = peer.paths.empty() ? BtlPath{} : peer.paths.front();
    peer.rdma = {};
    // Single copy only through the best-exclusivity BTLs: a slower fabric's get would lose to
    // fragments on the fast one.
    for (auto &p : peer.paths) {
        if (p.btl->exclusivity != peer.send.btl->exclusivity) break;
        if ((p.btl->caps & PLEXUS_BTL_CAP_GET) && p.btl->get && p.btl->rdma_threshold > 0) {
            peer.rdma = p;
            break;
        }
    }
}

runtime::Status Bml::add_procs(uint32_t first, uint32_t last) {
    if (last > peers_.size()) peers_.resize(last);
    std::vector<plexus_btl_proc_t> procs;
    procs.reserve(last - first);
    for (uint32_t id = first; id < last; ++id) {
        const auto &p = procs_.at(id);
        procs.push_back({id, p.rank, p.nspace.c_str()});
    }
    for (uint32_t id = first; id < last; ++id) peers_[id].paths.clear();
    std::vector<plexus_btl_endpoint_t *> eps(procs.size());
    for (auto *m : modules_) {
        std::fill(eps.begin(), eps.end(), nullptr);
        int rc = m->add_procs(m, procs.size(), procs.data(), eps.data());
        if (rc != PLEXUS_SUCCESS) {
            mca::emit(PLEXUS_LOG_WARN, "bml", std::string("btl ") + m->name + ": add_procs failed (" +
                                                  std::to_string(rc) + "); it is not used for these peers");
            continue;
        }
        for (size_t i = 0; i < procs.size(); ++i)
            if (eps[i]) peers_[first + i].paths.push_back({m, eps[i]});
    }
    for (uint32_t id = first; id < last; ++id) {
        BmlPeer &peer = peers_[id];
        order(peer);
        if (peer.paths.empty()) {
            const auto &p = procs_.at(id);
            last_error_ = "no BTL reaches process " + std::to_string(p.rank) + " of job " + p.nspace +
                          " (selected: " + module_names() +
                          "); for processes of this node include sm, for this process self "
                          "(e.g. --mca btl self,sm)";
            return runtime::Status::error(PLEXUS_ERR_UNREACH, last_error_);
        }
        peer.resolved = true;
    }
    return runtime::Status::ok();
}

BmlPeer *Bml::resolve(uint32_t proc) {
    if (proc >= procs_.size()) return nullptr;
    if (!add_procs(proc, proc + 1)) return nullptr;
    return &peers_[proc];
}

void Bml::del_procs(const std::vector<uint32_t> &procs) {
    for (auto *m : modules_) {
        if (!m->del_procs) continue;
        std::vector<plexus_btl_endpoint_t *> eps;
        for (uint32_t id : procs)
            if (id < peers_.size())
                for (const BtlPath &path : peers_[id].paths)
                    if (path.btl == m) eps.push_back(path.ep);
        if (!eps.empty()) m->del_procs(m, eps.size(), eps.data());
    }
    for (uint32_t id : procs)
        if (id < peers_.size()) peers_[id] = BmlPeer{};
}

bool Bml::holds(uint32_t proc) const {
    if (proc < peers_.size() && !peers_[proc].paths.empty()) return true;
    return std::any_of(modules_.begin(), modules_.end(), [proc](plexus_btl_module_t *m) {
        return !PLEXUS_BTL_HAS_HOLDS_PROC(m) || m->holds_proc(m, proc) != 0;
    });
}

void Bml::register_recv(uint8_t tag, plexus_btl_recv_fn_t fn, void *ctx) {
    for (auto *m : modules_) m->register_recv(m, tag, fn, ctx);
}

size_t Bml::pending() const {
    size_t n = 0;
    for (auto *m : modules_)
        if (m->pending) n += m->pending(m);
    return n;
}

}  // namespace plexus::mpi
