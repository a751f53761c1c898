// Port discovery's choice over made-up devices: the list parameters' syntax, unknown names
// answered with the devices that exist, inactive ports named with their state, and the reason
// when the node has no RDMA device at all (as this machine).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "components/btl_openib/port_select.h"

using namespace plexus::btl_openib;

namespace {

PortInfo port(const std::string &dev, uint8_t n, bool active, LinkLayer link = LinkLayer::InfiniBand) {
    PortInfo p;
    p.device = dev;
    p.port = n;
    p.active = active;
    p.state = active ? "ACTIVE" : "DOWN";
    p.link = link;
    p.lid = static_cast<uint16_t>(n * 10);
    return p;
}

std::vector<DeviceInfo> two_devices() {
    return {DeviceInfo{"mlx5_0", {port("mlx5_0", 1, false), port("mlx5_0", 2, true)}, ""},
            DeviceInfo{"rxe0", {port("rxe0", 1, true, LinkLayer::Ethernet)}, ""}};
}

std::string names(const std::vector<PortInfo> &ports) {
    std::string s;
    for (const PortInfo &p : ports) s += (s.empty() ? "" : " ") + p.device + ":" + std::to_string(p.port);
    return s;
}

TEST(OpenibPortSelect, ListsParseDevicesAndPorts) {
    std::vector<PortSpec> specs;
    std::string err;
    ASSERT_TRUE(parse_port_list("btl_openib_if_include", " mlx5_0 , mlx5_1:2", &specs, &err)) << err;
    ASSERT_EQ(specs.size(), 2u);
    EXPECT_EQ(specs[0].device, "mlx5_0");
    EXPECT_EQ(specs[0].port, 0);
    EXPECT_EQ(specs[1].device, "mlx5_1");
    EXPECT_EQ(specs[1].port, 2);
    ASSERT_TRUE(parse_port_list("btl_openib_if_include", "", &specs, &err));
    EXPECT_TRUE(specs.empty());
}

TEST(OpenibPortSelect, BadEntriesNameTheParameterTheEntryAndTheValidForm) {
    std::vector<PortSpec> specs;
    std::string err;
    EXPECT_FALSE(parse_port_list("btl_openib_if_include", "mlx5_0:0", &specs, &err));
    EXPECT_EQ(err, "btl_openib_if_include entry 'mlx5_0:0': the port must be a number from 1 to 255; valid: "
                   "device[:port],... (e.g. mlx5_0,mlx5_1:2)");
    EXPECT_FALSE(parse_port_list("btl_openib_if_exclude", "mlx5_0:x", &specs, &err));
    EXPECT_NE(err.find("btl_openib_if_exclude entry 'mlx5_0:x'"), std::string::npos);
    EXPECT_FALSE(parse_port_list("btl_openib_if_include", "mlx5_0,,mlx5_1", &specs, &err));
    EXPECT_NE(err.find("empty entry"), std::string::npos);
    EXPECT_FALSE(parse_port_list("btl_openib_if_include", ":1", &specs, &err));
    EXPECT_NE(err.find("names no device"), std::string::npos);
}

TEST(OpenibPortSelect, NoDeviceIsTheReasonOnAMachineWithoutRdma) {
    std::vector<PortInfo> out;
    std::string why;
    bool user_error = true;
    EXPECT_FALSE(select_ports({}, {}, {}, &out, &why, &user_error));
    EXPECT_FALSE(user_error);
    EXPECT_EQ(why, "no RDMA device found (ibv_get_device_list lists none: no InfiniBand HCA, no RoCE NIC, no Soft-RoCE)");
}

TEST(OpenibPortSelect, ActivePortsInOrderAndIncludeExcludeNarrowThem) {
    std::vector<PortInfo> out;
    std::string why;
    ASSERT_TRUE(select_ports(two_devices(), {}, {}, &out, &why)) << why;
    EXPECT_EQ(names(out), "mlx5_0:2 rxe0:1");
    ASSERT_TRUE(select_ports(two_devices(), {{"rxe0", 0}}, {}, &out, &why)) << why;
    EXPECT_EQ(names(out), "rxe0:1");
    ASSERT_TRUE(select_ports(two_devices(), {}, {{"mlx5_0", 0}}, &out, &why)) << why;
    EXPECT_EQ(names(out), "rxe0:1");
    EXPECT_EQ(out[0].link, LinkLayer::Ethernet);
}

TEST(OpenibPortSelect, AnUnknownNameListsTheDevicesThatExist) {
    std::vector<PortInfo> out;
    std::string why;
    bool user_error = false;
    EXPECT_FALSE(select_ports(two_devices(), {{"mlx4_0", 0}}, {}, &out, &why, &user_error));
    EXPECT_TRUE(user_error) << "the parameter is at fault, not the machine";
    EXPECT_EQ(why, "btl_openib_if_include names mlx4_0, which does not exist; devices here: mlx5_0 (ports 1, 2), "
                   "rxe0 (port 1)");
    EXPECT_FALSE(select_ports(two_devices(), {}, {{"mlx5_0", 3}}, &out, &why));
    EXPECT_EQ(why.rfind("btl_openib_if_exclude names mlx5_0:3, which does not exist", 0), 0u) << why;
}

TEST(OpenibPortSelect, OnlyInactivePortsChosenNamesTheirStates) {
    std::vector<PortInfo> out;
    std::string why;
    bool user_error = true;
    EXPECT_FALSE(select_ports(two_devices(), {{"mlx5_0", 1}}, {}, &out, &why, &user_error));
    EXPECT_EQ(why, "no active port (mlx5_0:1 is DOWN)");
    EXPECT_FALSE(user_error) << "a port that is down is the machine's state";
    std::vector<DeviceInfo> broken{DeviceInfo{"mlx5_9", {}, "cannot open: Permission denied"}};
    EXPECT_FALSE(select_ports(broken, {}, {}, &out, &why));
    EXPECT_EQ(why, "no usable port; devices here: mlx5_9 (cannot open: Permission denied)");
}

TEST(OpenibPortSelect, IncludeAndExcludeTogetherAreRefused) {
    std::vector<PortInfo> out;
    std::string why;
    EXPECT_FALSE(select_ports(two_devices(), {{"rxe0", 0}}, {{"mlx5_0", 0}}, &out, &why));
    EXPECT_EQ(why, "btl_openib_if_include and btl_openib_if_exclude are both set; set one of them");
}

}  // namespace
