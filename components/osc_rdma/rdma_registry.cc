#include "rdma_registry.h"

#include <map>
#include <memory>
#include <mutex>

#include "rdma_window.h"
#include "rdma_wire.h"

namespace plexus::osc_rdma {
namespace {

struct Registry {
    const plexus_osc_services_t *svc = nullptr;
    std::map<uint32_t, Window *> windows;
    uint32_t next_id = 1;
};

// One registry per services table. The mutex guards the map of registries only: a registry is
// used by its own process's thread (FUNNELED), and tests run each fake process on a thread.
std::mutex g_mutex;
std::map<const plexus_osc_services_t *, std::unique_ptr<Registry>> g_registries;

void dispatch(void *ctx, const plexus_btl_recv_desc_t *msg) {
    auto *reg = static_cast<Registry *>(ctx);
    MsgHeader h;
    if (!decode_header(msg->data, msg->len, &h)) return;  // not ours to parse: dropped
    auto it = reg->windows.find(h.win);
    if (it == reg->windows.end()) return;  // a window freed here; MPI_Win_free's barrier prevents it
    const auto *body = static_cast<const uint8_t *>(msg->data) + kMsgHeaderBytes;
    it->second->on_message(msg->src, h, body, msg->len - kMsgHeaderBytes);
}

}  // namespace

int registry_add(const plexus_osc_services_t *svc, Window *w, uint32_t *id) {
    std::lock_guard<std::mutex> lock(g_mutex);
    std::unique_ptr<Registry> &reg = g_registries[svc];
    if (!reg) {
        reg = std::make_unique<Registry>();
        reg->svc = svc;
    }
    if (reg->windows.empty())
        if (int rc = svc->register_recv(kTag, dispatch, reg.get()); rc != PLEXUS_OSC_SUCCESS) return rc;
    *id = reg->next_id++;
    reg->windows[*id] = w;
    return PLEXUS_OSC_SUCCESS;
}

void registry_remove(const plexus_osc_services_t *svc, uint32_t id) {
    std::lock_guard<std::mutex> lock(g_mutex);
    auto it = g_registries.find(svc);
    if (it == g_registries.end()) return;
    it->second->windows.erase(id);
    if (it->second->windows.empty()) {
        svc->register_recv(kTag, nullptr, nullptr);
        g_registries.erase(it);
    }
}

}  // namespace plexus::osc_rdma
