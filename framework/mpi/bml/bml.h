// The BML: for each peer, the BTLs that reach it, best first (exclusivity, then latency). The PML
// sends through the first one and uses the first one that can get/put for single-copy transfers.
#pragma once

#include <cstdint>
#include <deque>
#include <string>
#include <vector>

#include <plexus/btl.h>

#include "mpi/proc_table.h"
#include "runtime/status.h"

namespace plexus::mpi {

// One BTL's way to one peer.
struct BtlPath {
    plexus_btl_module_t *btl = nullptr;
    plexus_btl_endpoint_t *ep = nullptr;
};

struct BmlPeer {
    bool resolved = false;
    std::vector<BtlPath> paths;  // every module that reaches the peer, best first
    BtlPath send;                // paths[0]
    BtlPath rdma;                // the best path with get, if any (btl == nullptr: none)
};

class Bml {
public:
    // modules: the BTLs the btl framework selected, in its rank order. Modules of an interface
    // older than the data path are left out with a warning.
    explicit Bml(const std::vector<plexus_btl_module_t *> &modules, ProcTable &procs);
    ~Bml();
    Bml(const Bml &) = delete;
    Bml &operator=(const Bml &) = delete;

    // Adds procs [first, last) to every module; a proc no module reaches is an error that names
    // it and the modules tried.
    runtime::Status add_procs(uint32_t first, uint32_t last);
    // The peer's paths; adds it first when it is new (a process of another job).
    BmlPeer *peer(uint32_t proc) {
        if (proc < peers_.size() && peers_[proc].resolved) return &peers_[proc];
        return resolve(proc);
    }

    // The peers are gone (MPI_Comm_disconnect): every module's del_procs for their endpoints;
    // the next peer() adds them again.
    void del_procs(const std::vector<uint32_t> &procs);
    // Whether proc still has paths here or some module may still hand its id up (BTL 1.5
    // holds_proc; a module without it always may): its id cannot name another process yet.
    bool holds(uint32_t proc) const;

    // Registers fn for tag on every module.
    void register_recv(uint8_t tag, plexus_btl_recv_fn_t fn, void *ctx);
    // Messages and transfers still in flight in any module.
    size_t pending() const;
    const std::vector<plexus_btl_module_t *> &modules() const { return modules_; }
    std::string module_names() const;  // "self, sm"
    const std::string &last_error() const { return last_error_; }

private:
    BmlPeer *resolve(uint32_t proc);
    void order(BmlPeer &peer);

    std::vector<plexus_btl_module_t *> modules_;
    ProcTable &procs_;
    // A deque: the PML keeps pointers to its entries, and peers of other jobs are appended at
    // run time (a vector's growth would move the entries).
    std::deque<BmlPeer> peers_;
    std::string last_error_;
};

// Whether a module speaks the data-path interface this core was built for.
bool btl_module_usable(const plexus_btl_module_t *m, std::string *why);

}  // namespace plexus::mpi
