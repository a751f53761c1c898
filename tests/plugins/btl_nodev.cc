// A btl test component for hardware this machine lacks: it loads, registers its parameters and
// declines in open() with the reason, as btl_openib does without an HCA.
#include <plexus/btl.h>

#include "test_component.h"

namespace {

struct Nodev : plexus_test::Good {
    static constexpr plexus::sdk::Identity identity{
        "plexus-tests", "BSD-3-Clause", "test btl: hardware-specific, declines without its device", {1, 0, 0}};
    static int register_params(const plexus_host_api_t *host, const plexus_component_t *self) {
        return plexus_test::register_params(host, self, "60");
    }
    static int open(const plexus_host_api_t *host, const plexus_component_t *, plexus_reason_t *why) {
        plexus_test::state().host = host;
        plexus::sdk::set_reason(why, "no plexus-test device present (this component never finds one)");
        return PLEXUS_ERR_NOT_AVAILABLE;
    }
};

}  // namespace

PLEXUS_SDK_COMPONENT(btl, nodev, PLEXUS_BTL_MAJOR, PLEXUS_BTL_MINOR, Nodev);
