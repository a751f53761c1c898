#include "device.h"

#include <cerrno>
#include <cstring>

namespace plexus::btl_openib {
namespace {

LinkLayer link_of(uint8_t l) {
    switch (l) {
    case IBV_LINK_LAYER_INFINIBAND:
    case IBV_LINK_LAYER_UNSPECIFIED:  // old drivers: InfiniBand
        return LinkLayer::InfiniBand;
    case IBV_LINK_LAYER_ETHERNET:
        return LinkLayer::Ethernet;
    default:
        return LinkLayer::Unknown;
    }
}

DeviceInfo describe(ibv_device *dev) {
    DeviceInfo d;
    d.name = ibv_get_device_name(dev);
    ContextPtr ctx(ibv_open_device(dev));
    if (!ctx) {
        d.error = std::string("cannot open: ") + std::strerror(errno);
        return d;
    }
    ibv_device_attr attr{};
    if (ibv_query_device(ctx.get(), &attr) != 0) {
        d.error = std::string("cannot query: ") + std::strerror(errno);
        return d;
    }
    for (int n = 1; n <= int(attr.phys_port_cnt); ++n) {
        const auto port = static_cast<uint8_t>(n);
        ibv_port_attr pa{};
        PortInfo p;
        p.device = d.name;
        p.port = port;
        if (ibv_query_port(ctx.get(), port, &pa) != 0) {
            p.state = std::string("unqueryable (") + std::strerror(errno) + ")";
            d.ports.push_back(p);
            continue;
        }
        p.active = pa.state == IBV_PORT_ACTIVE;
        p.state = ibv_port_state_str(pa.state);
        p.link = link_of(pa.link_layer);
        p.lid = pa.lid;
        p.mtu_enum = static_cast<uint8_t>(pa.active_mtu);
        p.mtu = mtu_bytes(pa.active_mtu);
        ibv_gid gid{};
        if (ibv_query_gid(ctx.get(), port, 0, &gid) == 0) std::memcpy(p.gid, gid.raw, sizeof p.gid);
        d.ports.push_back(p);
    }
    return d;
}

}  // namespace

uint32_t mtu_bytes(int mtu_enum) {
    switch (mtu_enum) {
    case IBV_MTU_256: return 256;
    case IBV_MTU_512: return 512;
    case IBV_MTU_1024: return 1024;
    case IBV_MTU_2048: return 2048;
    case IBV_MTU_4096: return 4096;
    default: return 0;
    }
}

std::vector<DeviceInfo> discover_devices() {
    int n = 0;
    DeviceListPtr list(ibv_get_device_list(&n));
    std::vector<DeviceInfo> out;
    if (!list) return out;  // no kernel support at all (ENOSYS): no device either
    for (int i = 0; i < n; ++i) out.push_back(describe(list.get()[i]));
    return out;
}

ContextPtr open_device(const std::string &name, std::string *why) {
    int n = 0;
    DeviceListPtr list(ibv_get_device_list(&n));
    for (int i = 0; list && i < n; ++i) {
        if (name != ibv_get_device_name(list.get()[i])) continue;
        ContextPtr ctx(ibv_open_device(list.get()[i]));
        if (!ctx) *why = "ibv_open_device " + name + ": " + std::strerror(errno);
        return ctx;
    }
    *why = "device " + name + " disappeared";
    return nullptr;
}

}  // namespace plexus::btl_openib
