// The descriptive members of a BTL module struct (btl.h) filled in one place: the version the
// component was built against, its name, what it can do and what the PML and BML plan with.
// A component describes its module in a BtlModuleInfo and calls fill_btl_module once its
// resources are known; the entry points come from btl_entry_points.hpp.
//
//   plexus::sdk::BtlModuleInfo info;
//   info.name = "tcp";
//   info.caps = PLEXUS_BTL_CAP_SEND;
//   info.exclusivity = params.exclusivity;
//   ...
//   plexus::sdk::fill_btl_module(&handle.api, info);
//
// Below that, what every BTL module object needs around its struct: the handle that leads from
// the C struct back to the object (BtlModuleHandle), the status a lost peer ends the job with,
// and the table of the upper layer's receive callbacks (BtlRecvTable).
#pragma once

#include <cstddef>
#include <cstdint>

#include <plexus/btl.h>

namespace plexus::sdk {

// Every member a module describes itself by; the ones a BTL without put/get leaves alone are 0.
struct BtlModuleInfo {
    const char *name = nullptr;    // the component's name, static storage
    uint32_t caps = 0;             // PLEXUS_BTL_CAP_*
    uint32_t exclusivity = 0;      // PLEXUS_BTL_EXCLUSIVITY_* band or a value between
    uint32_t latency_ns = 0;       // estimate, ranks equal exclusivities
    uint32_t bandwidth_mbps = 0;
    size_t eager_limit = 0;        // largest header + payload sent unasked
    size_t max_send_size = 0;      // largest header + payload of any send
    size_t rdma_threshold = 0;     // payloads from this size on go by get/put; 0: never
    size_t max_rdma_size = 0;      // largest single put/get; 0: unlimited
    size_t rdma_limit = 0;         // BTL 1.3: above this, fragments again; 0: no limit
};

// Sets the version members to the btl.h this component is compiled against (so that the core
// knows which members exist) and the descriptive members from info. Entry points are untouched.
inline void fill_btl_module(plexus_btl_module_t *m, const BtlModuleInfo &info) noexcept {
    m->struct_size = sizeof *m;
    m->major = PLEXUS_BTL_MAJOR;
    m->minor = PLEXUS_BTL_MINOR;
    m->name = info.name;
    m->caps = info.caps;
    m->exclusivity = info.exclusivity;
    m->latency_ns = info.latency_ns;
    m->bandwidth_mbps = info.bandwidth_mbps;
    m->eager_limit = info.eager_limit;
    m->max_send_size = info.max_send_size;
    m->rdma_threshold = info.rdma_threshold;
    m->max_rdma_size = info.max_rdma_size;
#ifdef PLEXUS_BTL_RDMA_LIMIT  // btl.h 1.3
    m->rdma_limit = info.rdma_limit;
#endif
}

}  // namespace plexus::sdk

namespace plexus::sdk {

// The C module struct a component hands to the core, with the way back to the C++ module that
// owns it: the core calls with &handle.api, which is the address of the handle (standard layout),
// so owner() is exact.
template <class Module>
struct BtlModuleHandle {
    plexus_btl_module_t api;
    Module *self;

    static Module *owner(plexus_btl_module_t *m) noexcept { return reinterpret_cast<BtlModuleHandle *>(m)->self; }
};

// The status a job ends with (host->abort) when a BTL loses a peer: the message names the peer.
inline constexpr int kBtlLostPeerStatus = 1;

// The upper layer's receive callbacks by tag (register_recv), and what a BTL does with a message
// for a tag nobody registered: drops it, with one warning per tag (a PML of another version, or a
// message sent before the receiver registered).
class BtlRecvTable {
public:
    int set(uint8_t tag, plexus_btl_recv_fn_t fn, void *ctx) noexcept {
        entries_[tag].fn = fn;
        entries_[tag].ctx = fn ? ctx : nullptr;
        return PLEXUS_SUCCESS;
    }

    // Hands the message (in place: valid during the call only) to tag's callback, with the
    // sender's upper-layer id; false when nobody registered for tag.
    bool deliver(const plexus_host_api_t *host, const plexus_component_t *self, uint32_t src, uint8_t tag,
                 const void *data, size_t len) noexcept {
        Entry &e = entries_[tag];
        if (!e.fn) {
            if (!e.warned && host && host->log)
                host->log(self, PLEXUS_LOG_WARN, "dropping messages with tag 0x%02x: no callback registered", tag);
            e.warned = true;
            return false;
        }
        const plexus_btl_recv_desc_t msg{src, tag, {0, 0, 0}, data, len};
        e.fn(e.ctx, &msg);
        return true;
    }

private:
    struct Entry {
        plexus_btl_recv_fn_t fn = nullptr;
        void *ctx = nullptr;
        bool warned = false;
    };
    Entry entries_[PLEXUS_BTL_TAG_COUNT];
};

}  // namespace plexus::sdk
