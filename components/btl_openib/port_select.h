// Which HCA port btl_openib uses, apart from verbs: the devices and ports the discovery found
// (device.cc asks libibverbs), btl_openib_if_include / _if_exclude parsed and checked against
// them, and the reason in words when nothing is usable. Tested with made-up devices.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace plexus::btl_openib {

enum class LinkLayer : uint8_t { InfiniBand, Ethernet, Unknown };

struct PortInfo {
    std::string device;  // "mlx5_0"
    uint8_t port = 1;
    bool active = false;
    std::string state;   // "ACTIVE", "DOWN", ... (ibv_port_state_str)
    LinkLayer link = LinkLayer::InfiniBand;
    uint16_t lid = 0;
    uint8_t gid[16] = {};
    uint32_t mtu = 0;    // the active MTU in bytes
    uint8_t mtu_enum = 0;  // ibv_mtu, as the QP wants it
};

struct DeviceInfo {
    std::string name;
    std::vector<PortInfo> ports;
    std::string error;  // why it could not be opened or queried ("" when it could)
};

// One entry of if_include / if_exclude: a device, optionally one port of it ("mlx5_0:1").
struct PortSpec {
    std::string device;
    int port = 0;  // 0: every port
};

// "mlx5_0,mlx5_1:2" -> specs. false with *err naming param, the entry and the valid forms.
bool parse_port_list(const char *param, const std::string &text, std::vector<PortSpec> *out, std::string *err);

// The usable ports in order (devices as listed, ports ascending), after include/exclude. false with
// *why when none is: no device at all, a named device or port that does not exist (the ones that
// exist are listed), or none of the chosen ports active (their states are listed). *user_error
// (when given) says whether the parameters are at fault rather than the machine.
bool select_ports(const std::vector<DeviceInfo> &devices, const std::vector<PortSpec> &include,
                  const std::vector<PortSpec> &exclude, std::vector<PortInfo> *out, std::string *why,
                  bool *user_error = nullptr);

// "mlx5_0 (ports 1, 2), mlx5_1 (port 1)"
std::string describe_devices(const std::vector<DeviceInfo> &devices);

}  // namespace plexus::btl_openib
