#include "port_select.h"

#include <cerrno>
#include <cstdlib>

namespace plexus::btl_openib {
namespace {

std::string trim(const std::string &s) {
    const size_t b = s.find_first_not_of(" \t");
    if (b == std::string::npos) return "";
    return s.substr(b, s.find_last_not_of(" \t") - b + 1);
}

bool matches(const PortSpec &spec, const PortInfo &p) {
    return spec.device == p.device && (spec.port == 0 || spec.port == p.port);
}

bool any_match(const std::vector<PortSpec> &specs, const PortInfo &p) {
    for (const PortSpec &s : specs)
        if (matches(s, p)) return true;
    return false;
}

// Names a spec that matches no port of any device; "" when each names something.
std::string unknown_spec(const std::vector<DeviceInfo> &devices, const std::vector<PortSpec> &specs) {
    for (const PortSpec &s : specs) {
        bool found = false;
        for (const DeviceInfo &d : devices)
            for (const PortInfo &p : d.ports) found |= matches(s, p);
        if (!found) return s.port ? s.device + ":" + std::to_string(s.port) : s.device;
    }
    return "";
}

}  // namespace

bool parse_port_list(const char *param, const std::string &text, std::vector<PortSpec> *out, std::string *err) {
    out->clear();
    size_t start = 0;
    while (start <= text.size()) {
        const size_t comma = text.find(',', start);
        const std::string item = trim(text.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
        start = comma == std::string::npos ? text.size() + 1 : comma + 1;
        if (item.empty()) {
            if (comma == std::string::npos && out->empty() && trim(text).empty()) return true;  // unset
            *err = std::string(param) + " has an empty entry in '" + text + "'; valid: device[:port],... (e.g. mlx5_0,mlx5_1:2)";
            return false;
        }
        PortSpec spec;
        const size_t colon = item.find(':');
        spec.device = item.substr(0, colon);
        if (colon != std::string::npos) {
            const std::string port = item.substr(colon + 1);
            char *end = nullptr;
            errno = 0;
            const long v = std::strtol(port.c_str(), &end, 10);
            if (port.empty() || *end != '\0' || errno != 0 || v < 1 || v > 255) {
                *err = std::string(param) + " entry '" + item + "': the port must be a number from 1 to 255; valid: device[:port],... (e.g. mlx5_0,mlx5_1:2)";
                return false;
            }
            spec.port = static_cast<int>(v);
        }
        if (spec.device.empty()) {
            *err = std::string(param) + " entry '" + item + "' names no device; valid: device[:port],... (e.g. mlx5_0,mlx5_1:2)";
            return false;
        }
        out->push_back(spec);
    }
    return true;
}

std::string describe_devices(const std::vector<DeviceInfo> &devices) {
    std::string s;
    for (const DeviceInfo &d : devices) {
        if (!s.empty()) s += ", ";
        s += d.name + " (";
        if (!d.error.empty()) {
            s += d.error + ")";
            continue;
        }
        s += d.ports.size() == 1 ? "port " : "ports ";
        for (size_t i = 0; i < d.ports.size(); ++i) s += (i ? ", " : "") + std::to_string(d.ports[i].port);
        s += ")";
    }
    return s;
}

bool select_ports(const std::vector<DeviceInfo> &devices, const std::vector<PortSpec> &include,
                  const std::vector<PortSpec> &exclude, std::vector<PortInfo> *out, std::string *why,
                  bool *user_error) {
    out->clear();
    if (user_error) *user_error = false;
    if (devices.empty()) {
        *why = "no RDMA device found (ibv_get_device_list lists none: no InfiniBand HCA, no RoCE NIC, no Soft-RoCE)";
        return false;
    }
    if (!include.empty() && !exclude.empty()) {
        *why = "btl_openib_if_include and btl_openib_if_exclude are both set; set one of them";
        if (user_error) *user_error = true;
        return false;
    }
    if (std::string bad = unknown_spec(devices, include.empty() ? exclude : include); !bad.empty()) {
        *why = std::string(include.empty() ? "btl_openib_if_exclude" : "btl_openib_if_include") + " names " + bad +
               ", which does not exist; devices here: " + describe_devices(devices);
        if (user_error) *user_error = true;
        return false;
    }
    std::string inactive;
    for (const DeviceInfo &d : devices) {
        for (const PortInfo &p : d.ports) {
            if (!include.empty() && !any_match(include, p)) continue;
            if (any_match(exclude, p)) continue;
            if (p.active && p.link != LinkLayer::Unknown) {
                out->push_back(p);
                continue;
            }
            if (!inactive.empty()) inactive += ", ";
            inactive += p.device + ":" + std::to_string(p.port) + " " + (p.active ? "has an unknown link layer" : "is " + p.state);
        }
    }
    if (!out->empty()) return true;
    if (!inactive.empty())
        *why = "no active port (" + inactive + ")";
    else
        *why = std::string(include.empty() && exclude.empty() ? "no usable port"
                                                              : "no port left after btl_openib_if_include/_if_exclude") +
               "; devices here: " + describe_devices(devices);
    return false;
}

}  // namespace plexus::btl_openib
