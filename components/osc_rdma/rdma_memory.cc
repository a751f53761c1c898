#include "rdma_memory.h"

#include <cstdio>
#include <cstring>

#include <plexus/osc.h>

namespace plexus::osc_rdma {

bool add_handle(PeerMemory *entry, const char *btl_name, const plexus_btl_mem_handle_t &mem) {
    if (entry->handles >= uint32_t(kMaxHandles) || std::strlen(btl_name) >= kBtlNameBytes) return false;
    PeerMemory::Handle &h = entry->handle[entry->handles++];
    std::memset(h.btl, 0, sizeof h.btl);
    std::memcpy(h.btl, btl_name, std::strlen(btl_name));
    h.mem = mem;
    return true;
}

int MemoryTable::check(int rank, const Access &a, std::string *why) const {
    if (a.span == 0) return PLEXUS_OSC_SUCCESS;  // nothing is touched
    const PeerMemory &p = at(rank);
    char msg[256];
    if (a.disp < 0) {
        std::snprintf(msg, sizeof msg, "target_disp %lld is negative (rank %d's window)", (long long)a.disp, rank);
        if (why) *why = msg;
        return PLEXUS_OSC_ERR_DISP;
    }
    // In 128 bits' worth of care: disp * unit + lb + span must not wrap.
    const unsigned __int128 first = (unsigned __int128)uint64_t(a.disp) * uint32_t(p.disp_unit);
    const __int128 start = __int128(first) + a.lb;
    const __int128 end = start + __int128(a.span);
    if (start < 0 || end > __int128(p.size)) {
        std::snprintf(msg, sizeof msg,
                      "the access at target_disp %lld (disp_unit %d) covers bytes [%lld, %lld) of rank %d's "
                      "window, which has %llu bytes",
                      (long long)a.disp, p.disp_unit, (long long)start, (long long)end, rank,
                      (unsigned long long)p.size);
        if (why) *why = msg;
        return PLEXUS_OSC_ERR_DISP;
    }
    return PLEXUS_OSC_SUCCESS;
}

bool MemoryTable::rma_anywhere() const {
    bool issuer = false, exposed = false;
    for (const PeerMemory &p : peers_) {
        issuer = issuer || (p.flags & kMayIssueRma);
        exposed = exposed || p.handles > 0;
    }
    return issuer && exposed;
}

const plexus_btl_mem_handle_t *MemoryTable::handle(int rank, const char *btl_name) const {
    const PeerMemory &p = at(rank);
    for (uint32_t i = 0; i < p.handles && i < uint32_t(kMaxHandles); ++i)
        if (std::strncmp(p.handle[i].btl, btl_name, kBtlNameBytes) == 0) return &p.handle[i].mem;
    return nullptr;
}

}  // namespace plexus::osc_rdma
