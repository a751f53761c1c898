// The module as this machine runs it: libibverbs finds no RDMA device, so open() declines with
// that reason (what plexus_info and btl_base_verbose show) and leaves nothing behind; a bad
// parameter is refused first, naming it. On a machine with an HCA the decline test is skipped.
#include <gtest/gtest.h>

#include <cstdarg>
#include <cstdio>
#include <string>
#include <vector>

#include "components/btl_openib/device.h"
#include "components/btl_openib/openib_module.h"

using namespace plexus::btl_openib;

namespace {

std::vector<std::string> g_log;

void fake_log(const plexus_component_t *, int, const char *fmt, ...) {
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    std::vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    g_log.emplace_back(buf);
}

plexus_host_api_t host_without_runtime() {
    plexus_host_api_t h{};
    h.struct_size = sizeof h;
    h.major = PLEXUS_HOST_API_MAJOR;
    h.minor = PLEXUS_HOST_API_MINOR;
    h.log = fake_log;
    return h;
}

TEST(OpenibModule, DeclinesWithTheReasonWhereThereIsNoRdmaDevice) {
    if (!discover_devices().empty()) GTEST_SKIP() << "this machine has an RDMA device";
    const plexus_host_api_t host = host_without_runtime();
    plexus_component_t self{};
    self.name = "openib";
    OpenibModule m(&host, &self, OpenibParams{});
    plexus_reason_t why{};
    EXPECT_EQ(m.open(&why), PLEXUS_ERR_NOT_AVAILABLE);
    EXPECT_STREQ(why.text,
                 "no RDMA device found (ibv_get_device_list lists none: no InfiniBand HCA, no RoCE NIC, no Soft-RoCE)");
    ASSERT_FALSE(g_log.empty());
    EXPECT_EQ(g_log.back(), why.text) << "btl_base_verbose shows the same reason";
}

TEST(OpenibModule, ABadParameterIsRefusedBeforeAnyDeviceIsOpened) {
    g_log.clear();
    const plexus_host_api_t host = host_without_runtime();
    plexus_component_t self{};
    OpenibParams p;
    p.if_include = "mlx5_0:zero";
    OpenibModule m(&host, &self, p);
    plexus_reason_t why{};
    EXPECT_EQ(m.open(&why), PLEXUS_ERR_BAD_PARAM);
    EXPECT_STREQ(why.text, "btl_openib_if_include entry 'mlx5_0:zero': the port must be a number from 1 to 255; "
                           "valid: device[:port],... (e.g. mlx5_0,mlx5_1:2)");
}

}  // namespace
