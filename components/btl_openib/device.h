// Device and port discovery through libibverbs: what port_select.h chooses from.
#pragma once

#include <string>
#include <vector>

#include "port_select.h"
#include "verbs_raii.h"

namespace plexus::btl_openib {

// Every RDMA device libibverbs lists, each with its ports and their state, LID, GID 0 and MTU. A
// device that cannot be opened or queried is listed with its error.
std::vector<DeviceInfo> discover_devices();

// Opens the device named; nullptr with *why.
ContextPtr open_device(const std::string &name, std::string *why);

// Bytes of an ibv_mtu value.
uint32_t mtu_bytes(int mtu_enum);

}  // namespace plexus::btl_openib
